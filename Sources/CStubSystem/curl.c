#if defined(__linux__) && !defined(CSTUB_NO_CURL)
// libcurl, loaded at run time (dlopen), for the https:// upstreams of the proxy on Linux: its multi interface,
// driven by a poll loop of ours, waits without spinning (Foundation's URLSession bridge to it does not). No
// link-time dependency and no <curl/curl.h>: the few symbols are looked up by name, and the constants in
// CStubSystem.h are curl's stable ABI values. Typed wrappers stand in for the variadic curl_easy_setopt and
// curl_easy_getinfo, which Swift cannot call.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include "CStubSystem.h"

typedef void CURL;
typedef void CURLM;
typedef int CURLcode;
typedef int CURLMcode;
typedef int CURLoption;
typedef int CURLINFO;

/// curl.h's CURLMsg: the message kind (an enum: int), the easy handle, and a union whose CURLcode is the result.
typedef struct {
    int msg;
    CURL *easy_handle;
    union {
        void *whatever;
        CURLcode result;
    } data;
} cstub_CURLMsg;

/// curl.h's struct curl_waitfd, for curl_multi_poll's extra descriptors (none here).
struct cstub_curl_waitfd {
    int fd;
    short events;
    short revents;
};

/// The functions used, as curl.h declares them.
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct cstub_curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    cstub_CURLMsg *(*multi_info_read)(CURLM *, int *);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
} curl;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static int curl_loaded = 0;

/// Looks `name` up in `library`, then among the symbols already in the process (FoundationNetworking's libcurl).
static void *curl_symbol(void *library, const char *name) {
    void *symbol = library ? dlsym(library, name) : NULL;
    return symbol ? symbol : dlsym(RTLD_DEFAULT, name);
}

static void curl_load_once(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
#define CSTUB_CURL_SYMBOL(field, name) \
    if (!(*(void **)&curl.field = curl_symbol(library, name))) return;
    CSTUB_CURL_SYMBOL(global_init, "curl_global_init")
    CSTUB_CURL_SYMBOL(easy_init, "curl_easy_init")
    CSTUB_CURL_SYMBOL(easy_cleanup, "curl_easy_cleanup")
    CSTUB_CURL_SYMBOL(easy_setopt, "curl_easy_setopt")
    CSTUB_CURL_SYMBOL(easy_getinfo, "curl_easy_getinfo")
    CSTUB_CURL_SYMBOL(easy_strerror, "curl_easy_strerror")
    CSTUB_CURL_SYMBOL(multi_init, "curl_multi_init")
    CSTUB_CURL_SYMBOL(multi_cleanup, "curl_multi_cleanup")
    CSTUB_CURL_SYMBOL(multi_add_handle, "curl_multi_add_handle")
    CSTUB_CURL_SYMBOL(multi_remove_handle, "curl_multi_remove_handle")
    CSTUB_CURL_SYMBOL(multi_perform, "curl_multi_perform")
    CSTUB_CURL_SYMBOL(multi_poll, "curl_multi_poll")           // libcurl 7.66
    CSTUB_CURL_SYMBOL(multi_wakeup, "curl_multi_wakeup")       // libcurl 7.68
    CSTUB_CURL_SYMBOL(multi_info_read, "curl_multi_info_read")
    CSTUB_CURL_SYMBOL(slist_append, "curl_slist_append")
    CSTUB_CURL_SYMBOL(slist_free_all, "curl_slist_free_all")
#undef CSTUB_CURL_SYMBOL
    // CURL_GLOBAL_ALL (SSL | WIN32); reference-counted, so FoundationNetworking's own call does not matter.
    if (curl.global_init(3L) != 0) return;
    curl_loaded = 1;
}

int cstub_curl_load(void) {
    pthread_once(&curl_once, curl_load_once);
    return curl_loaded;
}

void *cstub_curl_easy_init(void) { return curl.easy_init(); }
void cstub_curl_easy_cleanup(void *easy) { curl.easy_cleanup(easy); }

int cstub_curl_easy_setopt_long(void *easy, int option, long value) { return curl.easy_setopt(easy, option, value); }
int cstub_curl_easy_setopt_pointer(void *easy, int option, const void *value) {
    return curl.easy_setopt(easy, option, value);
}
int cstub_curl_easy_setopt_off_t(void *easy, int option, int64_t value) {
    return curl.easy_setopt(easy, option, (long long)value);   // curl_off_t: 64 bits on every Linux
}
int cstub_curl_easy_setopt_data_function(void *easy, int option, cstub_curl_data_function function) {
    return curl.easy_setopt(easy, option, function);
}

int cstub_curl_easy_getinfo_long(void *easy, int info, long *value) { return curl.easy_getinfo(easy, info, value); }
const char *cstub_curl_easy_strerror(int code) { return curl.easy_strerror(code); }

void *cstub_curl_multi_init(void) { return curl.multi_init(); }
int cstub_curl_multi_cleanup(void *multi) { return curl.multi_cleanup(multi); }
int cstub_curl_multi_add_handle(void *multi, void *easy) { return curl.multi_add_handle(multi, easy); }
int cstub_curl_multi_remove_handle(void *multi, void *easy) { return curl.multi_remove_handle(multi, easy); }
int cstub_curl_multi_perform(void *multi, int *running) { return curl.multi_perform(multi, running); }
int cstub_curl_multi_poll(void *multi, int timeout_ms, int *ready) { return curl.multi_poll(multi, NULL, 0, timeout_ms, ready); }
int cstub_curl_multi_wakeup(void *multi) { return curl.multi_wakeup(multi); }

int cstub_curl_multi_next_done(void *multi, void **easy, int *result) {
    int queued = 0;
    cstub_CURLMsg *message;
    while ((message = curl.multi_info_read(multi, &queued)) != NULL) {
        if (message->msg != cstub_CURLMSG_DONE) continue;
        *easy = message->easy_handle;
        *result = message->data.result;
        return 1;
    }
    return 0;
}

void *cstub_curl_slist_append(void *list, const char *line) { return curl.slist_append(list, line); }
void cstub_curl_slist_free_all(void *list) { curl.slist_free_all(list); }
#endif
