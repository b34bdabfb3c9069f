#ifdef __linux__
#define _GNU_SOURCE
#include <sys/socket.h>
#include <pthread.h>
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
#endif
