#if defined(__linux__) && !defined(CSTUB_NO_OPENSSL)
// libcrypto (OpenSSL 3), loaded at run time (dlopen), for the certificates of HTTPS (StubCertificates): EC P-256
// keys, SHA-256 signatures and digests, key forms, PKCS#12. No link-time dependency and no OpenSSL headers: the
// few functions are declared here with opaque types, as libcrypto.so.3 exports them (OpenSSL 3.0 and later keep
// that ABI). Every result is a buffer of ours (malloc), freed with cstub_crypto_free; errors are OpenSSL's text.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "CStubSystem.h"

typedef void EVP_PKEY;
typedef void EVP_PKEY_CTX;
typedef void EVP_MD_CTX;
typedef void EVP_MD;
typedef void PKCS8_PRIV_KEY_INFO;
typedef void PKCS12;
typedef void X509;
typedef void OPENSSL_STACK;

/// The functions used, as OpenSSL 3's headers declare them.
static struct {
    EVP_PKEY_CTX *(*pkey_ctx_new_from_name)(void *libctx, const char *name, const char *propquery);
    int (*pkey_keygen_init)(EVP_PKEY_CTX *);
    int (*pkey_ctx_set_group_name)(EVP_PKEY_CTX *, const char *name);
    int (*pkey_generate)(EVP_PKEY_CTX *, EVP_PKEY **);
    void (*pkey_ctx_free)(EVP_PKEY_CTX *);
    void (*pkey_free)(EVP_PKEY *);
    PKCS8_PRIV_KEY_INFO *(*pkey2pkcs8)(const EVP_PKEY *);
    int (*i2d_pkcs8)(const PKCS8_PRIV_KEY_INFO *, unsigned char **);
    void (*pkcs8_free)(PKCS8_PRIV_KEY_INFO *);
    int (*i2d_pubkey)(const EVP_PKEY *, unsigned char **);
    EVP_PKEY *(*d2i_auto_private_key)(EVP_PKEY **, const unsigned char **, long);
    EVP_MD_CTX *(*md_ctx_new)(void);
    void (*md_ctx_free)(EVP_MD_CTX *);
    const EVP_MD *(*sha256)(void);
    int (*digest_sign_init)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, void *engine, EVP_PKEY *);
    int (*digest_sign)(EVP_MD_CTX *, unsigned char *, size_t *, const unsigned char *, size_t);
    int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const EVP_MD *, void *engine);
    PKCS12 *(*d2i_pkcs12)(PKCS12 **, const unsigned char **, long);
    int (*pkcs12_parse)(PKCS12 *, const char *, EVP_PKEY **, X509 **, OPENSSL_STACK **);
    void (*pkcs12_free)(PKCS12 *);
    int (*i2d_x509)(const X509 *, unsigned char **);
    void (*x509_free)(X509 *);
    int (*sk_num)(const OPENSSL_STACK *);
    void *(*sk_value)(const OPENSSL_STACK *, int);
    void (*sk_pop_free)(OPENSSL_STACK *, void (*)(void *));
    unsigned long (*err_get_error)(void);
    void (*err_error_string_n)(unsigned long, char *, size_t);
    void (*err_clear_error)(void);
} crypto;

static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;
static int crypto_loaded = 0;
static char crypto_load_error[512] = "";

static void crypto_load_once(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(crypto_load_error, sizeof crypto_load_error,
                 "HTTPS certificates need OpenSSL 3's libcrypto.so.3, which could not be loaded (%s); install it "
                 "(Debian and Ubuntu: apt-get install libssl3)",
                 reason ? reason : "not found");
        return;
    }
#define CSTUB_CRYPTO_SYMBOL(field, name)                                                                    \
    if (!(*(void **)&crypto.field = dlsym(library, name))) {                                                 \
        snprintf(crypto_load_error, sizeof crypto_load_error,                                               \
                 "libcrypto.so.3 lacks %s: HTTPS certificates need OpenSSL 3.0 or later (Debian and Ubuntu: " \
                 "apt-get install libssl3)",                                                                \
                 name);                                                                                     \
        return;                                                                                             \
    }
    CSTUB_CRYPTO_SYMBOL(pkey_ctx_new_from_name, "EVP_PKEY_CTX_new_from_name")
    CSTUB_CRYPTO_SYMBOL(pkey_keygen_init, "EVP_PKEY_keygen_init")
    CSTUB_CRYPTO_SYMBOL(pkey_ctx_set_group_name, "EVP_PKEY_CTX_set_group_name")
    CSTUB_CRYPTO_SYMBOL(pkey_generate, "EVP_PKEY_generate")
    CSTUB_CRYPTO_SYMBOL(pkey_ctx_free, "EVP_PKEY_CTX_free")
    CSTUB_CRYPTO_SYMBOL(pkey_free, "EVP_PKEY_free")
    CSTUB_CRYPTO_SYMBOL(pkey2pkcs8, "EVP_PKEY2PKCS8")
    CSTUB_CRYPTO_SYMBOL(i2d_pkcs8, "i2d_PKCS8_PRIV_KEY_INFO")
    CSTUB_CRYPTO_SYMBOL(pkcs8_free, "PKCS8_PRIV_KEY_INFO_free")
    CSTUB_CRYPTO_SYMBOL(i2d_pubkey, "i2d_PUBKEY")
    CSTUB_CRYPTO_SYMBOL(d2i_auto_private_key, "d2i_AutoPrivateKey")
    CSTUB_CRYPTO_SYMBOL(md_ctx_new, "EVP_MD_CTX_new")
    CSTUB_CRYPTO_SYMBOL(md_ctx_free, "EVP_MD_CTX_free")
    CSTUB_CRYPTO_SYMBOL(sha256, "EVP_sha256")
    CSTUB_CRYPTO_SYMBOL(digest_sign_init, "EVP_DigestSignInit")
    CSTUB_CRYPTO_SYMBOL(digest_sign, "EVP_DigestSign")
    CSTUB_CRYPTO_SYMBOL(digest, "EVP_Digest")
    CSTUB_CRYPTO_SYMBOL(d2i_pkcs12, "d2i_PKCS12")
    CSTUB_CRYPTO_SYMBOL(pkcs12_parse, "PKCS12_parse")
    CSTUB_CRYPTO_SYMBOL(pkcs12_free, "PKCS12_free")
    CSTUB_CRYPTO_SYMBOL(i2d_x509, "i2d_X509")
    CSTUB_CRYPTO_SYMBOL(x509_free, "X509_free")
    CSTUB_CRYPTO_SYMBOL(sk_num, "OPENSSL_sk_num")
    CSTUB_CRYPTO_SYMBOL(sk_value, "OPENSSL_sk_value")
    CSTUB_CRYPTO_SYMBOL(sk_pop_free, "OPENSSL_sk_pop_free")
    CSTUB_CRYPTO_SYMBOL(err_get_error, "ERR_get_error")
    CSTUB_CRYPTO_SYMBOL(err_error_string_n, "ERR_error_string_n")
    CSTUB_CRYPTO_SYMBOL(err_clear_error, "ERR_clear_error")
#undef CSTUB_CRYPTO_SYMBOL
    crypto_loaded = 1;
}

int cstub_crypto_load(void) {
    pthread_once(&crypto_once, crypto_load_once);
    return crypto_loaded;
}

const char *cstub_crypto_load_error(void) {
    cstub_crypto_load();
    return crypto_load_error;
}

void cstub_crypto_free(cstub_crypto_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->count = 0;
}

/// `what` and OpenSSL's first queued error into `error`; clears the queue. Returns -1.
static int fail(const char *what, char *error, size_t error_size) {
    unsigned long code = crypto.err_get_error();
    char reason[256] = "";
    if (code != 0) crypto.err_error_string_n(code, reason, sizeof reason);
    crypto.err_clear_error();
    snprintf(error, error_size, "%s%s%s", what, code != 0 ? ": " : "", reason);
    return -1;
}

/// Runs an i2d_* function twice (length, then into a buffer of ours). Returns 0, or -1 when it fails.
#define CSTUB_I2D(function, object, buffer)                                 \
    do {                                                                    \
        int length = (function)((object), NULL);                            \
        if (length <= 0) return -1;                                         \
        unsigned char *bytes = malloc((size_t)length);                      \
        if (!bytes) return -1;                                              \
        unsigned char *cursor = bytes;                                      \
        if ((function)((object), &cursor) != length) {                      \
            free(bytes);                                                    \
            return -1;                                                      \
        }                                                                   \
        (buffer)->bytes = bytes;                                            \
        (buffer)->count = (size_t)length;                                   \
    } while (0)

static int encode_pkcs8(EVP_PKEY *key, cstub_crypto_buffer *pkcs8) {
    PKCS8_PRIV_KEY_INFO *info = crypto.pkey2pkcs8(key);
    if (!info) return -1;
    int length = crypto.i2d_pkcs8(info, NULL);
    int result = -1;
    unsigned char *bytes = length > 0 ? malloc((size_t)length) : NULL;
    if (bytes) {
        unsigned char *cursor = bytes;
        if (crypto.i2d_pkcs8(info, &cursor) == length) {
            pkcs8->bytes = bytes;
            pkcs8->count = (size_t)length;
            result = 0;
        } else {
            free(bytes);
        }
    }
    crypto.pkcs8_free(info);
    return result;
}

static int encode_public_key(EVP_PKEY *key, cstub_crypto_buffer *spki) {
    CSTUB_I2D(crypto.i2d_pubkey, key, spki);
    return 0;
}

static int encode_certificate(X509 *certificate, cstub_crypto_buffer *der) {
    CSTUB_I2D(crypto.i2d_x509, certificate, der);
    return 0;
}

static EVP_PKEY *decode_private_key(const unsigned char *der, size_t count) {
    const unsigned char *cursor = der;
    return crypto.d2i_auto_private_key(NULL, &cursor, (long)count);
}

int cstub_crypto_generate_p256(cstub_crypto_buffer *pkcs8, cstub_crypto_buffer *spki, char *error,
                               size_t error_size) {
    if (!cstub_crypto_load()) {
        snprintf(error, error_size, "%s", crypto_load_error);
        return -1;
    }
    EVP_PKEY_CTX *context = crypto.pkey_ctx_new_from_name(NULL, "EC", NULL);
    if (!context) return fail("EVP_PKEY_CTX_new_from_name(EC) failed", error, error_size);
    EVP_PKEY *key = NULL;
    if (crypto.pkey_keygen_init(context) <= 0 || crypto.pkey_ctx_set_group_name(context, "P-256") <= 0 ||
        crypto.pkey_generate(context, &key) <= 0) {
        crypto.pkey_ctx_free(context);
        return fail("generating an EC P-256 key failed", error, error_size);
    }
    crypto.pkey_ctx_free(context);
    int result = 0;
    if (encode_pkcs8(key, pkcs8) != 0) {
        result = fail("encoding the key as PKCS#8 failed", error, error_size);
    } else if (encode_public_key(key, spki) != 0) {
        cstub_crypto_free(pkcs8);
        result = fail("encoding the public key failed", error, error_size);
    }
    crypto.pkey_free(key);
    return result;
}

int cstub_crypto_public_key(const unsigned char *key_der, size_t key_count, cstub_crypto_buffer *spki,
                            char *error, size_t error_size) {
    if (!cstub_crypto_load()) {
        snprintf(error, error_size, "%s", crypto_load_error);
        return -1;
    }
    EVP_PKEY *key = decode_private_key(key_der, key_count);
    if (!key) return fail("not a private key OpenSSL can read", error, error_size);
    int result = encode_public_key(key, spki) == 0 ? 0 : fail("encoding the public key failed", error, error_size);
    crypto.pkey_free(key);
    return result;
}

int cstub_crypto_private_key_pkcs8(const unsigned char *key_der, size_t key_count, cstub_crypto_buffer *pkcs8,
                                   char *error, size_t error_size) {
    if (!cstub_crypto_load()) {
        snprintf(error, error_size, "%s", crypto_load_error);
        return -1;
    }
    EVP_PKEY *key = decode_private_key(key_der, key_count);
    if (!key) return fail("not a private key OpenSSL can read", error, error_size);
    int result = encode_pkcs8(key, pkcs8) == 0 ? 0 : fail("encoding the key as PKCS#8 failed", error, error_size);
    crypto.pkey_free(key);
    return result;
}

int cstub_crypto_sign_sha256(const unsigned char *key_der, size_t key_count, const unsigned char *message,
                             size_t message_count, cstub_crypto_buffer *signature, char *error, size_t error_size) {
    if (!cstub_crypto_load()) {
        snprintf(error, error_size, "%s", crypto_load_error);
        return -1;
    }
    EVP_PKEY *key = decode_private_key(key_der, key_count);
    if (!key) return fail("not a private key OpenSSL can read", error, error_size);
    EVP_MD_CTX *context = crypto.md_ctx_new();
    int result = -1;
    size_t length = 0;
    if (!context || crypto.digest_sign_init(context, NULL, crypto.sha256(), NULL, key) <= 0 ||
        crypto.digest_sign(context, NULL, &length, message, message_count) <= 0) {
        result = fail("starting a SHA-256 signature failed", error, error_size);
    } else {
        unsigned char *bytes = malloc(length);
        if (bytes && crypto.digest_sign(context, bytes, &length, message, message_count) > 0) {
            signature->bytes = bytes;
            signature->count = length;
            result = 0;
        } else {
            free(bytes);
            result = fail("signing failed", error, error_size);
        }
    }
    if (context) crypto.md_ctx_free(context);
    crypto.pkey_free(key);
    return result;
}

int cstub_crypto_sha256(const unsigned char *data, size_t count, unsigned char digest[32]) {
    if (!cstub_crypto_load()) return -1;
    unsigned int size = 0;
    return crypto.digest(data, count, digest, &size, crypto.sha256(), NULL) > 0 && size == 32 ? 0 : -1;
}

int cstub_crypto_pkcs12_parse(const unsigned char *data, size_t count, const char *password,
                              cstub_crypto_buffer *leaf, cstub_crypto_buffer *key, cstub_crypto_buffer *extras,
                              char *error, size_t error_size) {
    if (!cstub_crypto_load()) {
        snprintf(error, error_size, "%s", crypto_load_error);
        return -1;
    }
    const unsigned char *cursor = data;
    PKCS12 *archive = crypto.d2i_pkcs12(NULL, &cursor, (long)count);
    if (!archive) return fail("not a PKCS#12 file", error, error_size);
    EVP_PKEY *private_key = NULL;
    X509 *certificate = NULL;
    OPENSSL_STACK *chain = NULL;
    int parsed = crypto.pkcs12_parse(archive, password, &private_key, &certificate, &chain);
    crypto.pkcs12_free(archive);
    if (!parsed) return fail("wrong password, or a PKCS#12 file OpenSSL cannot read", error, error_size);
    int result = 0;
    if (!private_key || !certificate) {
        snprintf(error, error_size, "the PKCS#12 file holds no %s", private_key ? "certificate" : "private key");
        crypto.err_clear_error();
        result = -1;
    } else if (encode_certificate(certificate, leaf) != 0 || encode_pkcs8(private_key, key) != 0) {
        cstub_crypto_free(leaf);
        result = fail("re-encoding the certificate or key failed", error, error_size);
    } else {
        // The other certificates, one DER after another.
        int number = chain ? crypto.sk_num(chain) : 0;
        for (int index = 0; index < number && result == 0; index++) {
            cstub_crypto_buffer one = {NULL, 0};
            if (encode_certificate(crypto.sk_value(chain, index), &one) != 0) {
                result = fail("re-encoding a chain certificate failed", error, error_size);
                break;
            }
            unsigned char *grown = realloc(extras->bytes, extras->count + one.count);
            if (!grown) {
                cstub_crypto_free(&one);
                snprintf(error, error_size, "out of memory");
                result = -1;
                break;
            }
            memcpy(grown + extras->count, one.bytes, one.count);
            extras->bytes = grown;
            extras->count += one.count;
            cstub_crypto_free(&one);
        }
        if (result != 0) {
            cstub_crypto_free(leaf);
            cstub_crypto_free(key);
            cstub_crypto_free(extras);
        }
    }
    if (private_key) crypto.pkey_free(private_key);
    if (certificate) crypto.x509_free(certificate);
    if (chain) crypto.sk_pop_free(chain, crypto.x509_free);
    return result;
}
#endif
