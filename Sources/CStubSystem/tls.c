#if defined(__linux__) && !defined(CSTUB_NO_OPENSSL)
// The server side of TLS on Linux: the system's OpenSSL 3 (libssl.so.3, libcrypto.so.3), loaded at run time
// (dlopen) as curl.c loads libcurl: no link-time dependency and no OpenSSL headers. Each connection's session
// reads and writes memory buffers (two BIO_s_mem), never the socket: the engine's event loop moves the bytes
// with its own non-blocking reads and MSG_NOSIGNAL writes, so a handshake never blocks a loop thread and a
// peer that left never raises SIGPIPE. The constants are OpenSSL 3's stable ABI values (ssl.h, tls1.h, bio.h).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "CStubSystem.h"

typedef void SSL_CTX;
typedef void SSL;
typedef void SSL_METHOD;
typedef void BIO;
typedef void BIO_METHOD;
typedef void X509;
typedef void EVP_PKEY;
typedef int (*alpn_select_function)(SSL *, const unsigned char **, unsigned char *, const unsigned char *,
                                    unsigned int, void *);

enum {
    SSL_ERROR_NONE = 0,
    SSL_ERROR_SSL = 1,
    SSL_ERROR_WANT_READ = 2,
    SSL_ERROR_WANT_WRITE = 3,
    SSL_ERROR_SYSCALL = 5,
    SSL_ERROR_ZERO_RETURN = 6,
    SSL_CTRL_EXTRA_CHAIN_CERT = 14,
    SSL_CTRL_MODE = 33,
    SSL_CTRL_SET_MIN_PROTO_VERSION = 123,
    TLS1_2_VERSION = 0x0303,
    SSL_MODE_RELEASE_BUFFERS = 0x10,
    SSL_TLSEXT_ERR_OK = 0,
    SSL_TLSEXT_ERR_NOACK = 3,
    BIO_CTRL_PENDING = 10,
};
/// SSL_OP_NO_COMPRESSION, SSL_OP_CIPHER_SERVER_PREFERENCE, SSL_OP_NO_RENEGOTIATION (OpenSSL 3's bits 17, 22, 30).
static const uint64_t server_options = (1ULL << 17) | (1ULL << 22) | (1ULL << 30);

static struct {
    int (*init_ssl)(uint64_t, const void *);
    const SSL_METHOD *(*server_method)(void);
    SSL_CTX *(*ctx_new)(const SSL_METHOD *);
    void (*ctx_free)(SSL_CTX *);
    long (*ctx_ctrl)(SSL_CTX *, int, long, void *);
    uint64_t (*ctx_set_options)(SSL_CTX *, uint64_t);
    int (*ctx_use_certificate)(SSL_CTX *, X509 *);
    int (*ctx_use_private_key)(SSL_CTX *, EVP_PKEY *);
    int (*ctx_check_private_key)(const SSL_CTX *);
    void (*ctx_set_alpn_select_cb)(SSL_CTX *, alpn_select_function, void *);
    SSL *(*ssl_new)(SSL_CTX *);
    void (*ssl_free)(SSL *);
    void (*set_bio)(SSL *, BIO *, BIO *);
    void (*set_accept_state)(SSL *);
    int (*do_handshake)(SSL *);
    int (*read)(SSL *, void *, int);
    int (*write)(SSL *, const void *, int);
    int (*get_error)(const SSL *, int);
    int (*shutdown)(SSL *);
    int (*is_init_finished)(const SSL *);
    BIO *(*get_rbio)(const SSL *);
    BIO *(*get_wbio)(const SSL *);
    int (*bio_free)(BIO *);
    BIO *(*bio_new)(const BIO_METHOD *);
    const BIO_METHOD *(*bio_s_mem)(void);
    int (*bio_read)(BIO *, void *, int);
    int (*bio_write)(BIO *, const void *, int);
    long (*bio_ctrl)(BIO *, int, long, void *);
    X509 *(*d2i_x509)(X509 **, const unsigned char **, long);
    void (*x509_free)(X509 *);
    EVP_PKEY *(*d2i_auto_private_key)(EVP_PKEY **, const unsigned char **, long);
    void (*pkey_free)(EVP_PKEY *);
    unsigned long (*err_get_error)(void);
    void (*err_error_string_n)(unsigned long, char *, size_t);
    void (*err_clear_error)(void);
} ssl;

static pthread_once_t tls_once = PTHREAD_ONCE_INIT;
static int tls_loaded = 0;
static char tls_load_error[256] = "";

static void tls_load_once(void) {
    void *crypto = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    void *library = crypto ? dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!library) {
        snprintf(tls_load_error, sizeof tls_load_error, "%s", dlerror());
        return;
    }
#define CSTUB_TLS_SYMBOL(handle, field, name)                                                        \
    if (!(*(void **)&ssl.field = dlsym(handle, name))) {                                             \
        snprintf(tls_load_error, sizeof tls_load_error, "%s has no symbol %s (OpenSSL 3 is needed)", \
                 handle == library ? "libssl.so.3" : "libcrypto.so.3", name);                       \
        return;                                                                                      \
    }
    CSTUB_TLS_SYMBOL(library, init_ssl, "OPENSSL_init_ssl")
    CSTUB_TLS_SYMBOL(library, server_method, "TLS_server_method")
    CSTUB_TLS_SYMBOL(library, ctx_new, "SSL_CTX_new")
    CSTUB_TLS_SYMBOL(library, ctx_free, "SSL_CTX_free")
    CSTUB_TLS_SYMBOL(library, ctx_ctrl, "SSL_CTX_ctrl")
    CSTUB_TLS_SYMBOL(library, ctx_set_options, "SSL_CTX_set_options")
    CSTUB_TLS_SYMBOL(library, ctx_use_certificate, "SSL_CTX_use_certificate")
    CSTUB_TLS_SYMBOL(library, ctx_use_private_key, "SSL_CTX_use_PrivateKey")
    CSTUB_TLS_SYMBOL(library, ctx_check_private_key, "SSL_CTX_check_private_key")
    CSTUB_TLS_SYMBOL(library, ctx_set_alpn_select_cb, "SSL_CTX_set_alpn_select_cb")
    CSTUB_TLS_SYMBOL(library, ssl_new, "SSL_new")
    CSTUB_TLS_SYMBOL(library, ssl_free, "SSL_free")
    CSTUB_TLS_SYMBOL(library, set_bio, "SSL_set_bio")
    CSTUB_TLS_SYMBOL(library, set_accept_state, "SSL_set_accept_state")
    CSTUB_TLS_SYMBOL(library, do_handshake, "SSL_do_handshake")
    CSTUB_TLS_SYMBOL(library, read, "SSL_read")
    CSTUB_TLS_SYMBOL(library, write, "SSL_write")
    CSTUB_TLS_SYMBOL(library, get_error, "SSL_get_error")
    CSTUB_TLS_SYMBOL(library, shutdown, "SSL_shutdown")
    CSTUB_TLS_SYMBOL(library, is_init_finished, "SSL_is_init_finished")
    CSTUB_TLS_SYMBOL(library, get_rbio, "SSL_get_rbio")
    CSTUB_TLS_SYMBOL(library, get_wbio, "SSL_get_wbio")
    CSTUB_TLS_SYMBOL(crypto, bio_free, "BIO_free")
    CSTUB_TLS_SYMBOL(crypto, bio_new, "BIO_new")
    CSTUB_TLS_SYMBOL(crypto, bio_s_mem, "BIO_s_mem")
    CSTUB_TLS_SYMBOL(crypto, bio_read, "BIO_read")
    CSTUB_TLS_SYMBOL(crypto, bio_write, "BIO_write")
    CSTUB_TLS_SYMBOL(crypto, bio_ctrl, "BIO_ctrl")
    CSTUB_TLS_SYMBOL(crypto, d2i_x509, "d2i_X509")
    CSTUB_TLS_SYMBOL(crypto, x509_free, "X509_free")
    CSTUB_TLS_SYMBOL(crypto, d2i_auto_private_key, "d2i_AutoPrivateKey")
    CSTUB_TLS_SYMBOL(crypto, pkey_free, "EVP_PKEY_free")
    CSTUB_TLS_SYMBOL(crypto, err_get_error, "ERR_get_error")
    CSTUB_TLS_SYMBOL(crypto, err_error_string_n, "ERR_error_string_n")
    CSTUB_TLS_SYMBOL(crypto, err_clear_error, "ERR_clear_error")
#undef CSTUB_TLS_SYMBOL
    if (ssl.init_ssl(0, NULL) != 1) {
        snprintf(tls_load_error, sizeof tls_load_error, "OPENSSL_init_ssl failed");
        return;
    }
    tls_loaded = 1;
}

int cstub_tls_load(void) {
    pthread_once(&tls_once, tls_load_once);
    return tls_loaded;
}

const char *cstub_tls_load_error(void) { return tls_load_error; }

/// The oldest error queued on this thread as OpenSSL words it, into `buffer`; the queue is cleared.
static void take_error(char *buffer, size_t size) {
    unsigned long code = ssl.err_get_error();
    if (code == 0) {
        snprintf(buffer, size, "unknown TLS error");
    } else {
        ssl.err_error_string_n(code, buffer, size);
    }
    ssl.err_clear_error();
}

void cstub_tls_last_error(char *buffer, size_t size) { take_error(buffer, size); }

/// ALPN: `http/1.1` when the client offers it, else no protocol at all (never h2: the engine speaks HTTP/1.1).
static int select_http11(SSL *session, const unsigned char **out, unsigned char *out_length,
                         const unsigned char *offered, unsigned int offered_length, void *argument) {
    (void)session;
    (void)argument;
    static const char http11[] = "http/1.1";
    unsigned int index = 0;
    while (index < offered_length) {
        unsigned int length = offered[index];
        if (index + 1 + length > offered_length) break;
        if (length == 8 && memcmp(offered + index + 1, http11, 8) == 0) {
            *out = offered + index + 1;
            *out_length = 8;
            return SSL_TLSEXT_ERR_OK;
        }
        index += 1 + length;
    }
    return SSL_TLSEXT_ERR_NOACK;
}

void *cstub_tls_context_new(const uint8_t *const *certificates, const size_t *lengths, size_t count,
                            const uint8_t *key, size_t key_length, char *error, size_t error_size) {
    ssl.err_clear_error();
    SSL_CTX *context = ssl.ctx_new(ssl.server_method());
    if (!context) {
        take_error(error, error_size);
        return NULL;
    }
    ssl.ctx_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    ssl.ctx_ctrl(context, SSL_CTRL_MODE, SSL_MODE_RELEASE_BUFFERS, NULL);
    ssl.ctx_set_options(context, server_options);
    ssl.ctx_set_alpn_select_cb(context, select_http11, NULL);
    for (size_t index = 0; index < count; index++) {
        const unsigned char *cursor = certificates[index];
        X509 *certificate = ssl.d2i_x509(NULL, &cursor, (long)lengths[index]);
        if (!certificate) {
            snprintf(error, error_size, "certificate %zu of the chain is not DER X.509", index + 1);
            ssl.ctx_free(context);
            return NULL;
        }
        int ok = index == 0 ? ssl.ctx_use_certificate(context, certificate)
                            : (int)ssl.ctx_ctrl(context, SSL_CTRL_EXTRA_CHAIN_CERT, 0, certificate);
        // SSL_CTX_use_certificate takes a reference of its own; SSL_CTX_add_extra_chain_cert takes ours.
        if (index == 0) ssl.x509_free(certificate);
        if (ok != 1) {
            if (index != 0) ssl.x509_free(certificate);
            take_error(error, error_size);
            ssl.ctx_free(context);
            return NULL;
        }
    }
    const unsigned char *cursor = key;
    EVP_PKEY *private_key = ssl.d2i_auto_private_key(NULL, &cursor, (long)key_length);
    if (!private_key) {
        snprintf(error, error_size, "the private key is not a DER key (PKCS#8, SEC1 or PKCS#1)");
        ssl.ctx_free(context);
        return NULL;
    }
    int ok = ssl.ctx_use_private_key(context, private_key);
    ssl.pkey_free(private_key);
    if (ok != 1 || ssl.ctx_check_private_key(context) != 1) {
        take_error(error, error_size);
        ssl.ctx_free(context);
        return NULL;
    }
    return context;
}

void cstub_tls_context_free(void *context) { ssl.ctx_free(context); }

void *cstub_tls_session_new(void *context) {
    SSL *session = ssl.ssl_new(context);
    if (!session) return NULL;
    BIO *input = ssl.bio_new(ssl.bio_s_mem());
    BIO *output = ssl.bio_new(ssl.bio_s_mem());
    if (!input || !output) {
        // SSL_set_bio was not called: the BIOs are still ours to free.
        if (input) ssl.bio_free(input);
        if (output) ssl.bio_free(output);
        ssl.ssl_free(session);
        return NULL;
    }
    ssl.set_bio(session, input, output);
    ssl.set_accept_state(session);
    return session;
}

void cstub_tls_session_free(void *session) { ssl.ssl_free(session); }

int cstub_tls_feed(void *session, const uint8_t *bytes, size_t count) {
    return ssl.bio_write(ssl.get_rbio(session), bytes, (int)count) == (int)count ? 0 : -1;
}

/// SSL_read's outcome: > 0 bytes of plaintext; 0: needs more input; -1: the peer closed (close_notify);
/// -2: a fatal error (the reason with cstub_tls_last_error).
int cstub_tls_read(void *session, uint8_t *buffer, size_t capacity) {
    ssl.err_clear_error();
    int count = ssl.read(session, buffer, capacity > 0x40000000 ? 0x40000000 : (int)capacity);
    if (count > 0) return count;
    switch (ssl.get_error(session, count)) {
    case SSL_ERROR_WANT_READ:
    case SSL_ERROR_WANT_WRITE:
        return 0;
    case SSL_ERROR_ZERO_RETURN:
        return -1;
    default:
        return -2;
    }
}

/// Encrypts all `count` bytes into the output buffer; 0, or -2 on a fatal error.
int cstub_tls_write(void *session, const uint8_t *bytes, size_t count) {
    ssl.err_clear_error();
    if (count == 0) return 0;
    int written = ssl.write(session, bytes, (int)count);
    return written == (int)count ? 0 : -2;
}

/// Moves up to `capacity` bytes of ciphertext out of the output buffer; returns how many.
size_t cstub_tls_take_output(void *session, uint8_t *buffer, size_t capacity) {
    BIO *output = ssl.get_wbio(session);
    if (ssl.bio_ctrl(output, BIO_CTRL_PENDING, 0, NULL) <= 0) return 0;
    int count = ssl.bio_read(output, buffer, capacity > 0x40000000 ? 0x40000000 : (int)capacity);
    return count > 0 ? (size_t)count : 0;
}

/// Queues a close_notify alert.
void cstub_tls_shutdown(void *session) {
    ssl.err_clear_error();
    ssl.shutdown(session);
    ssl.err_clear_error();
}

int cstub_tls_handshake_done(void *session) { return ssl.is_init_finished(session); }

#endif
