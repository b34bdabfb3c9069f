#ifndef C_STUB_SYSTEM_H
#define C_STUB_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/types.h>

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

/// Starts `path` with posix_spawn(3): `input`, `output` and `error` as its fds 0, 1 and 2, every other
/// descriptor closed (posix_spawn_file_actions_addclosefrom_np, a GNU extension Glibc's Swift module does not
/// import), in `directory` when not NULL, in a process group of its own, with no signal blocked and SIGPIPE at
/// its default. Returns 0 and sets `*pid`, or an errno value.
int cstub_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
                int input, int output, int error);

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

/// OpenSSL 3 for the server side of TLS, loaded at run time (tls.c; absent from the static Slim build).
/// Whether libssl.so.3 and libcrypto.so.3 could be loaded and initialized; once.
int cstub_tls_load(void);
/// Why cstub_tls_load failed (dlerror's words, or the missing symbol).
const char *cstub_tls_load_error(void);
/// The oldest OpenSSL error queued on this thread, into `buffer` (the queue is cleared).
void cstub_tls_last_error(char *buffer, size_t size);
/// A server SSL_CTX presenting `count` DER certificates (leaf first) and a DER private key: TLS 1.2 and 1.3,
/// ALPN http/1.1 only, no renegotiation, no compression. NULL with the reason in `error`.
void *cstub_tls_context_new(const uint8_t *const *certificates, const size_t *lengths, size_t count,
                            const uint8_t *key, size_t key_length, char *error, size_t error_size);
void cstub_tls_context_free(void *context);
/// A server session over two memory buffers, in accept state; NULL when out of memory.
void *cstub_tls_session_new(void *context);
void cstub_tls_session_free(void *session);
/// Gives ciphertext read from the socket to the session: 0, or -1 when it could not be buffered.
int cstub_tls_feed(void *session, const uint8_t *bytes, size_t count);
/// Plaintext out: > 0 bytes; 0 needs more input; -1 the peer sent close_notify; -2 a fatal error.
int cstub_tls_read(void *session, uint8_t *buffer, size_t capacity);
/// Encrypts all `count` bytes of plaintext into the session's output: 0, or -2 on a fatal error.
int cstub_tls_write(void *session, const uint8_t *bytes, size_t count);
/// Moves up to `capacity` bytes of ciphertext (handshake records, data, alerts) out, to send; how many.
size_t cstub_tls_take_output(void *session, uint8_t *buffer, size_t capacity);
/// Queues a close_notify alert (take it with cstub_tls_take_output).
void cstub_tls_shutdown(void *session);
/// Whether the handshake is complete.
int cstub_tls_handshake_done(void *session);

/// libcurl, loaded at run time for the proxy's https:// upstreams (curl.c). The constants are curl's stable
/// ABI values, from <curl/curl.h> (curl 7.x and 8.x): CURLOPTTYPE_LONG 0, _OBJECTPOINT 10000,
/// _FUNCTIONPOINT 20000, _OFF_T 30000; CURLINFO_LONG 0x200000.
/// Whether libcurl 7.68 or later (curl_multi_poll, curl_multi_wakeup) could be loaded and initialized; once.
int cstub_curl_load(void);
/// curl_write_callback and curl's header callback: (data, 1, length, user data) → bytes taken.
typedef size_t (*cstub_curl_data_function)(char *data, size_t size, size_t count, void *context);
void *cstub_curl_easy_init(void);
void cstub_curl_easy_cleanup(void *easy);
int cstub_curl_easy_setopt_long(void *easy, int option, long value);
int cstub_curl_easy_setopt_pointer(void *easy, int option, const void *value);
int cstub_curl_easy_setopt_off_t(void *easy, int option, int64_t value);
int cstub_curl_easy_setopt_data_function(void *easy, int option, cstub_curl_data_function function);
int cstub_curl_easy_getinfo_long(void *easy, int info, long *value);
const char *cstub_curl_easy_strerror(int code);
void *cstub_curl_multi_init(void);
int cstub_curl_multi_cleanup(void *multi);
int cstub_curl_multi_add_handle(void *multi, void *easy);
int cstub_curl_multi_remove_handle(void *multi, void *easy);
int cstub_curl_multi_perform(void *multi, int *running);
/// curl_multi_poll with no extra descriptors: waits for the transfers' sockets, their timers, a wakeup, or `timeout_ms`.
int cstub_curl_multi_poll(void *multi, int timeout_ms, int *ready);
int cstub_curl_multi_wakeup(void *multi);
/// The next finished transfer from curl_multi_info_read: 1 with its easy handle and CURLcode, 0 when none is left.
int cstub_curl_multi_next_done(void *multi, void **easy, int *result);
void *cstub_curl_slist_append(void *list, const char *line);
void cstub_curl_slist_free_all(void *list);

#ifndef CSTUB_NO_OPENSSL
/// libcrypto (OpenSSL 3), loaded at run time for the certificates of HTTPS (crypto.c). Left out of the Slim
/// build (a static binary: no dlopen). Every function returns 0 on success and -1 on failure, with a message in
/// `error` (at most `error_size` bytes, NUL-terminated); buffers it fills are freed with cstub_crypto_free.
typedef struct {
    unsigned char *bytes;
    size_t count;
} cstub_crypto_buffer;
/// Whether libcrypto.so.3 (OpenSSL 3.0 or later) could be loaded; once.
int cstub_crypto_load(void);
/// Why cstub_crypto_load failed (naming libcrypto.so.3 and Debian's package libssl3), or "".
const char *cstub_crypto_load_error(void);
/// Frees `buffer`'s bytes and empties it.
void cstub_crypto_free(cstub_crypto_buffer *buffer);
/// A new EC P-256 key: its PKCS#8 DER and its SubjectPublicKeyInfo DER.
int cstub_crypto_generate_p256(cstub_crypto_buffer *pkcs8, cstub_crypto_buffer *spki, char *error, size_t error_size);
/// The SubjectPublicKeyInfo DER of a DER private key (PKCS#8, SEC1 or PKCS#1).
int cstub_crypto_public_key(const unsigned char *key, size_t key_count, cstub_crypto_buffer *spki, char *error,
                            size_t error_size);
/// A DER private key of any form (PKCS#8, SEC1 or PKCS#1) as unencrypted PKCS#8 DER.
int cstub_crypto_private_key_pkcs8(const unsigned char *key, size_t key_count, cstub_crypto_buffer *pkcs8,
                                   char *error, size_t error_size);
/// A SHA-256 signature of `message` with a DER private key: DER ECDSA-Sig-Value, or RSA PKCS#1 v1.5.
int cstub_crypto_sign_sha256(const unsigned char *key, size_t key_count, const unsigned char *message,
                             size_t message_count, cstub_crypto_buffer *signature, char *error, size_t error_size);
/// SHA-256 of `data` into `digest`.
int cstub_crypto_sha256(const unsigned char *data, size_t count, unsigned char digest[32]);
/// A PKCS#12 file opened with `password`: its certificate (DER), its key (PKCS#8 DER), and its other
/// certificates, one DER after another in `extras`.
int cstub_crypto_pkcs12_parse(const unsigned char *data, size_t count, const char *password,
                              cstub_crypto_buffer *leaf, cstub_crypto_buffer *key, cstub_crypto_buffer *extras,
                              char *error, size_t error_size);
#endif

enum {
    cstub_CURLOPT_WRITEDATA = 10001,
    cstub_CURLOPT_URL = 10002,
    cstub_CURLOPT_ERRORBUFFER = 10010,
    cstub_CURLOPT_WRITEFUNCTION = 20011,
    cstub_CURLOPT_HTTPHEADER = 10023,
    cstub_CURLOPT_HEADERDATA = 10029,
    cstub_CURLOPT_CUSTOMREQUEST = 10036,
    cstub_CURLOPT_NOPROGRESS = 43,
    cstub_CURLOPT_NOBODY = 44,
    cstub_CURLOPT_POST = 47,
    cstub_CURLOPT_FOLLOWLOCATION = 52,
    cstub_CURLOPT_HEADERFUNCTION = 20079,
    cstub_CURLOPT_NOSIGNAL = 99,
    cstub_CURLOPT_ACCEPT_ENCODING = 10102,
    cstub_CURLOPT_TIMEOUT_MS = 155,
    cstub_CURLOPT_POSTFIELDSIZE_LARGE = 30120,
    cstub_CURLOPT_COPYPOSTFIELDS = 10165,
    cstub_CURLOPT_PROTOCOLS = 181,
    cstub_CURLOPT_REDIR_PROTOCOLS = 182,
    cstub_CURLPROTO_HTTPS = 2,
    cstub_CURLINFO_RESPONSE_CODE = 0x200002,
    cstub_CURLINFO_OS_ERRNO = 0x200019,
    cstub_CURLMSG_DONE = 1,
    /// CURL_ERROR_SIZE: the error buffer's size.
    cstub_CURL_ERROR_SIZE = 256,
};
#endif

#endif
