// Forwarders for the libcurl functions FoundationNetworking calls; see include/CLazyCurl.h.
//
// They serve release builds, where Foundation is linked in statically and -lcurl is dropped
// (scripts/build-release.sh): FoundationNetworking's calls land here. Debug builds and test
// binaries use the shared FoundationNetworking, which calls libcurl directly; there only
// nimbus_curl_load itself runs (HTTPClientTests), and the forwarders are exercised by the tmux
// e2e test, which fetches a forecast through the release binary.

#include "CLazyCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__LP64__)
#error "the variadic forwarders below assume every option value fits one 64-bit argument slot"
#endif

// Every function forwarded, as (return type, name, parameters, arguments). The names are the
// undefined curl_* symbols of the toolchain's lib_CFURLSessionInterface.a (`nm -u`); one missing
// here makes the release link fail with an undefined reference.
#define NIMBUS_CURL_FUNCTIONS(X) \
    X(void *, curl_easy_init, (void), ()) \
    X(int, curl_easy_pause, (void *easy, int mask), (easy, mask)) \
    X(const char *, curl_easy_strerror, (int code), (code)) \
    X(int, curl_global_init, (long flags), (flags)) \
    X(int, curl_multi_add_handle, (void *multi, void *easy), (multi, easy)) \
    X(int, curl_multi_assign, (void *multi, int socket, void *data), (multi, socket, data)) \
    X(int, curl_multi_cleanup, (void *multi), (multi)) \
    X(void *, curl_multi_info_read, (void *multi, int *left), (multi, left)) \
    X(void *, curl_multi_init, (void), ()) \
    X(int, curl_multi_remove_handle, (void *multi, void *easy), (multi, easy)) \
    X(int, curl_multi_socket_action, (void *multi, int socket, int mask, int *running), \
      (multi, socket, mask, running)) \
    X(void *, curl_slist_append, (void *list, const char *text), (list, text)) \
    X(void *, curl_url, (void), ()) \
    X(int, curl_url_get, (void *url, int part, char **out, unsigned flags), (url, part, out, flags)) \
    X(int, curl_url_set, (void *url, int part, const char *text, unsigned flags), (url, part, text, flags)) \
    X(char *, curl_version, (void), ()) \
    X(void *, curl_version_info, (int age), (age))

// The ones that return nothing, as (name, parameters, arguments).
#define NIMBUS_CURL_PROCEDURES(X) \
    X(curl_easy_cleanup, (void *easy), (easy)) \
    X(curl_free, (void *p), (p)) \
    X(curl_slist_free_all, (void *list), (list))

// The three variadic ones take exactly one value after the option: a long, a pointer or a
// curl_off_t, each passed in one 64-bit slot on LP64 targets, so it is read and passed on as one.
#define NIMBUS_CURL_VARIADIC(X) \
    X(curl_easy_setopt) \
    X(curl_easy_getinfo) \
    X(curl_multi_setopt)

static struct {
#define FIELD(ret, name, params, args) ret (*name) params;
    NIMBUS_CURL_FUNCTIONS(FIELD)
#undef FIELD
#define PFIELD(name, params, args) void (*name) params;
    NIMBUS_CURL_PROCEDURES(PFIELD)
#undef PFIELD
#define VFIELD(name) int (*name)(void *, int, ...);
    NIMBUS_CURL_VARIADIC(VFIELD)
#undef VFIELD
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char error[256];

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(error, sizeof error, "%s", reason ? reason : "libcurl.so.4 could not be opened");
        return;
    }
#define LOOKUP(name, type) \
    *(void **)&curl.name = dlsym(library, #name); \
    if (!curl.name) { \
        snprintf(error, sizeof error, "libcurl.so.4 has no %s", #name); \
        return; \
    }
#define LOOKUP_FUNCTION(ret, name, params, args) LOOKUP(name, ret)
#define LOOKUP_PROCEDURE(name, params, args) LOOKUP(name, void)
#define LOOKUP_VARIADIC(name) LOOKUP(name, int)
    NIMBUS_CURL_FUNCTIONS(LOOKUP_FUNCTION)
    NIMBUS_CURL_PROCEDURES(LOOKUP_PROCEDURE)
    NIMBUS_CURL_VARIADIC(LOOKUP_VARIADIC)
#undef LOOKUP_VARIADIC
#undef LOOKUP_PROCEDURE
#undef LOOKUP_FUNCTION
#undef LOOKUP
    loaded = 1;
}

int nimbus_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *nimbus_curl_load_error(void) {
    return nimbus_curl_load() ? NULL : error;
}

// Reached only when something calls libcurl although nimbus_curl_load said it can't be used:
// a programming error, so say what happened and stop rather than call through a null pointer.
static void require(void) {
    if (nimbus_curl_load()) return;
    fprintf(stderr, "nimbus: libcurl is needed but can't be used: %s\n", error);
    abort();
}

#define FORWARD(ret, name, params, args) \
    ret name params { \
        require(); \
        return curl.name args; \
    }
NIMBUS_CURL_FUNCTIONS(FORWARD)
#undef FORWARD

#define FORWARD_PROCEDURE(name, params, args) \
    void name params { \
        require(); \
        curl.name args; \
    }
NIMBUS_CURL_PROCEDURES(FORWARD_PROCEDURE)
#undef FORWARD_PROCEDURE

#define FORWARD_VARIADIC(name) \
    int name(void *handle, int option, ...) { \
        require(); \
        va_list list; \
        va_start(list, option); \
        void *value = va_arg(list, void *); \
        va_end(list); \
        return curl.name(handle, option, value); \
    }
NIMBUS_CURL_VARIADIC(FORWARD_VARIADIC)
#undef FORWARD_VARIADIC
