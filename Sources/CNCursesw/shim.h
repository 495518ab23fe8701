#ifndef NIMBUS_CNCURSESW_SHIM_H
#define NIMBUS_CNCURSESW_SHIM_H

#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1

#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <errno.h>
#include <poll.h>

#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif

/* Small wrappers for macros and globals Swift cannot import reliably. */

static inline int nimbus_codeset_is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs != NULL && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "UTF8") == 0);
}

/* newterm instead of initscr: returns -1 instead of exiting when the terminal is unusable. */
static inline int nimbus_newterm(void) {
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return -1;
    set_term(screen);
    return 0;
}

static inline void nimbus_configure(void) {
    raw();
    noecho();
    nonl();
    keypad(stdscr, FALSE);
    intrflush(stdscr, FALSE);
    leaveok(stdscr, FALSE);
    scrollok(stdscr, FALSE);
    typeahead(-1); /* we read stdin ourselves; never cut a refresh short for pending input */
}

static inline int nimbus_rows(void) { return stdscr ? getmaxy(stdscr) : 0; }
static inline int nimbus_cols(void) { return stdscr ? getmaxx(stdscr) : 0; }
/* Palette size from terminfo (curses' COLORS is only set by start_color, which is not used). */
static inline int nimbus_colors(void) { int n = tigetnum("colors"); return n > 0 ? n : 0; }

static inline int nimbus_winsize(int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
        *rows = ws.ws_row;
        *cols = ws.ws_col;
        return 0;
    }
    return -1;
}

/* From <term.h>, which is not included for the macros it defines (lines, columns, ...). */
extern int setupterm(const char *term, int fd, int *errret);

/* Whether terminfo knows `term`: 1 yes, 0 no such entry, -1 no terminfo database. Only to explain
   a failed newterm; the entry it loads is not used. */
static inline int nimbus_terminfo_status(const char *term) {
    int status = 1;
    if (setupterm(term, STDOUT_FILENO, &status) == OK) return 1;
    return status;
}

/* Terminfo strings: NULL when the terminal does not have the capability. */
static inline const char *nimbus_tigetstr(const char *name) {
    char *s = tigetstr(name);
    return (s == NULL || s == (char *)-1) ? NULL : s;
}

static inline int nimbus_tigetflag(const char *name) { return tigetflag(name) > 0; }
static inline int nimbus_tigetnum(const char *name) { return tigetnum(name); }

/* tiparm is variadic, which Swift cannot call. */
static inline const char *nimbus_tiparm1(const char *cap, int a) { return tiparm(cap, a); }
static inline const char *nimbus_tiparm2(const char *cap, int a, int b) { return tiparm(cap, a, b); }

/* Writes bytes straight to the terminal, after anything curses still has buffered. */
static inline void nimbus_write(const char *s, size_t len) {
    fflush(stdout);
    while (len > 0) {
        ssize_t n = write(STDOUT_FILENO, s, len);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* stdout may share a non-blocking file description with stdin: wait as a blocking
               write would, so a frame is never cut short */
            struct pollfd pfd = { STDOUT_FILENO, POLLOUT, 0 };
            if (errno != EINTR && poll(&pfd, 1, -1) < 0 && errno != EINTR) break;
            continue;
        }
        if (n <= 0) break;
        s += n;
        len -= (size_t)n;
    }
}

static inline void nimbus_write_raw(const char *s) { nimbus_write(s, strlen(s)); }


/* Crash guard (see CrashGuard.swift): the escape sequences that undo curses' screen modes,
   written with one async-signal-safe write(2). */
#include <unistd.h>
static inline void nimbus_write_terminal_reset(void) {
    static const char reset[] = "\033[?1006l\033[?1002l\033[?1000l\033[?2004l\033[0m\033[?25h\033[?1049l\r\n";
    ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
    (void)ignored;
}

#endif
