#ifndef C_STUB_SYSTEM_H
#define C_STUB_SYSTEM_H

#include <stdint.h>

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>

/// epoll_event is packed on x86_64; these accessors keep Swift away from the layout.
static inline uint32_t cstub_epoll_event_events(const struct epoll_event *ev) { return ev->events; }
static inline uint64_t cstub_epoll_event_u64(const struct epoll_event *ev) { return ev->data.u64; }
static inline int cstub_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

/// The size of one epoll_event, for allocating event arrays from Swift.
static inline int cstub_epoll_event_size(void) { return (int)sizeof(struct epoll_event); }

/// accept4(2) is a GNU extension that Glibc's Swift module does not import.
int cstub_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);

/// The calling thread's stack size in bytes (pthread_getattr_np, a GNU extension), or -1.
long cstub_current_thread_stack_size(void);
/// Names the calling thread (pthread_setname_np needs _GNU_SOURCE); at most 15 bytes are kept.
int cstub_set_current_thread_name(const char *name);
/// Raises the calling thread's nice value by `increment` (Linux's nice is per thread: setpriority on its tid).
int cstub_lower_current_thread_priority(int increment);

static const int cstub_SOCK_NONBLOCK = SOCK_NONBLOCK;
static const int cstub_SOCK_CLOEXEC = SOCK_CLOEXEC;
static const uint32_t cstub_EPOLLIN = EPOLLIN;
static const uint32_t cstub_EPOLLOUT = EPOLLOUT;
static const uint32_t cstub_EPOLLERR = EPOLLERR;
static const uint32_t cstub_EPOLLHUP = EPOLLHUP;
static const uint32_t cstub_EPOLLRDHUP = EPOLLRDHUP;
/// poll(2)'s POLLRDHUP (the peer shut its sending side) needs _GNU_SOURCE; it is the same bit as EPOLLRDHUP.
static const short cstub_POLLRDHUP = (short)EPOLLRDHUP;
#endif

#endif
