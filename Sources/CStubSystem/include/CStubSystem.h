#ifndef C_STUB_SYSTEM_H
#define C_STUB_SYSTEM_H

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>

/// epoll_event is packed on x86_64; these accessors keep Swift away from the layout.
static inline uint32_t cstub_epoll_event_events(const struct epoll_event *ev) { return ev->events; }
static inline uint64_t cstub_epoll_event_u64(const struct epoll_event *ev) { return ev->data.u64; }
static inline int cstub_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}
#endif

#endif
