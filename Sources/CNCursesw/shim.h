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

static inline int nimbus_color_pair(int n) { return (int)COLOR_PAIR(n); }

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
static inline int nimbus_colors(void) { return COLORS; }
static inline int nimbus_color_pairs(void) { return COLOR_PAIRS; }

static inline attr_t nimbus_attrs(int bold, int dim, int reverse, int underline) {
    attr_t a = A_NORMAL;
    if (bold) a |= A_BOLD;
    if (dim) a |= A_DIM;
    if (reverse) a |= A_REVERSE;
    if (underline) a |= A_UNDERLINE;
    return a;
}

static inline int nimbus_init_pair(int pair, int fg, int bg) {
#if defined(NCURSES_EXT_COLORS)
    return init_extended_pair(pair, fg, bg);
#else
    return init_pair((short)pair, (short)fg, (short)bg);
#endif
}

static inline int nimbus_setcchar(cchar_t *cc, const wchar_t *wch, attr_t attrs, int pair) {
#if defined(NCURSES_EXT_COLORS)
    return setcchar(cc, wch, attrs, 0, &pair);
#else
    return setcchar(cc, wch, attrs, (short)pair, NULL);
#endif
}

/* Draws one grapheme (given as Unicode scalars) at (y, x) with attributes and colour pair. */
static inline int nimbus_put(int y, int x, const unsigned int *scalars, int count, attr_t attrs, int pair) {
    wchar_t wch[CCHARW_MAX + 1];
    int n = count < CCHARW_MAX ? count : CCHARW_MAX;
    if (n <= 0) { wch[0] = L' '; n = 1; }
    else for (int i = 0; i < n; i++) wch[i] = (wchar_t)scalars[i];
    wch[n] = 0;
    cchar_t cc;
    if (nimbus_setcchar(&cc, wch, attrs, pair) == ERR) {
        /* e.g. emoji ZWJ sequences: several spacing characters; keep the first. */
        wch[1] = 0;
        if (nimbus_setcchar(&cc, wch, attrs, pair) == ERR) return ERR;
    }
    return mvwadd_wch(stdscr, y, x, &cc);
}

static inline int nimbus_winsize(int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
        *rows = ws.ws_row;
        *cols = ws.ws_col;
        return 0;
    }
    return -1;
}

static inline void nimbus_clear_all(void) {
    werase(stdscr);
    clearok(curscr, TRUE);
}

static inline void nimbus_move(int y, int x) { wmove(stdscr, y, x); }

static inline void nimbus_update(void) {
    wnoutrefresh(stdscr);
    doupdate();
}

/* Writes bytes straight to the terminal (bracketed-paste mode switches). */
static inline void nimbus_write_raw(const char *s) {
    fflush(stdout);
    size_t len = strlen(s);
    while (len > 0) {
        ssize_t n = write(STDOUT_FILENO, s, len);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
            /* stdout may share a non-blocking file description with stdin */
            struct pollfd pfd = { STDOUT_FILENO, POLLOUT, 0 };
            if (errno != EINTR && poll(&pfd, 1, 100) <= 0) break;
            continue;
        }
        if (n <= 0) break;
        s += n;
        len -= (size_t)n;
    }
}


/* Crash guard (see CrashGuard.swift): the escape sequences that undo curses' screen modes,
   written with one async-signal-safe write(2). */
#include <unistd.h>
static inline void nimbus_write_terminal_reset(void) {
    static const char reset[] = "\033[?2004l\033[0m\033[?25h\033[?1049l\r\n";
    ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
    (void)ignored;
}

#endif
