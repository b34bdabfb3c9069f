#ifdef __linux__
#define _GNU_SOURCE
#include <sys/socket.h>
#include <pthread.h>
#include <errno.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "CStubSystem.h"

int cstub_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    return accept4(fd, addr, len, flags);
}

long cstub_current_thread_stack_size(void) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    size_t size = 0;
    int result = pthread_attr_getstacksize(&attributes, &size);
    pthread_attr_destroy(&attributes);
    return result == 0 ? (long)size : -1;
}

int cstub_set_current_thread_name(const char *name) {
    return pthread_setname_np(pthread_self(), name);
}

int cstub_lower_current_thread_priority(int increment) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    errno = 0;
    int current = getpriority(PRIO_PROCESS, (id_t)tid);
    if (current == -1 && errno != 0) return -1;
    return setpriority(PRIO_PROCESS, (id_t)tid, current + increment);
}
#endif
