/* hd_signal.c - lets Ctrl-C stop a long call into the core.
 *
 * Python runs its signal handlers only between bytecodes, so while the main
 * thread is in a long C call a Ctrl-C waits for the call to end.  Around such
 * a call, hd_sigint_begin(stop) puts a handler in front of the one it finds
 * (Python's): it sets *stop, so the C loops return within a few thousand
 * iterations, and then calls the previous handler, so Python raises
 * KeyboardInterrupt as soon as it runs again.  hd_sigint_end() puts the
 * previous handler back exactly as it was.
 *
 * POSIX: sigaction, so the previous handler's flags (SA_ONSTACK, no
 * SA_RESTART for Python's) are kept and restored.  Elsewhere (Windows):
 * C99 signal(); Windows resets a handler to SIG_DFL when it runs, and
 * Python's own handler then installs itself again, which is what we want.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* sigaction with -std=c99 */
#endif

#include <signal.h>
#include <stddef.h>
#include <string.h>

#include "holdem.h"

/* The flag of the call under way, or NULL when no handler of ours is in. */
static volatile int *volatile target;

static void raise_stop(void) {
    volatile int *flag = target;
    if (flag) *flag = 1;
}

#if !defined(_WIN32)

static struct sigaction previous;

static void on_sigint(int sig, siginfo_t *info, void *context) {
    raise_stop();
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) previous.sa_sigaction(sig, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
    }
}

int hd_sigint_begin(int *stop) {
    struct sigaction action;
    if (target || sigaction(SIGINT, NULL, &previous) != 0) return 0;
    if (!(previous.sa_flags & SA_SIGINFO) &&
        (previous.sa_handler == SIG_DFL || previous.sa_handler == SIG_IGN))
        return 0;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigint;
    action.sa_mask = previous.sa_mask;
    action.sa_flags = (previous.sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
    target = stop;
    if (sigaction(SIGINT, &action, NULL) != 0) {
        target = NULL;
        return 0;
    }
    return 1;
}

void hd_sigint_end(void) {
    sigaction(SIGINT, &previous, NULL);
    target = NULL;
}

#else

typedef void (*handler_t)(int);
static handler_t volatile previous;

static void on_sigint(int sig) {
    handler_t next = previous;
    raise_stop();
    if (next != NULL && next != SIG_DFL && next != SIG_IGN && next != SIG_ERR) next(sig);
}

int hd_sigint_begin(int *stop) {
    handler_t found;
    if (target) return 0;
    target = stop;
    found = signal(SIGINT, on_sigint);
    previous = found;
    if (found == SIG_ERR || found == SIG_DFL || found == SIG_IGN) {
        if (found != SIG_ERR) signal(SIGINT, found);
        target = NULL;
        return 0;
    }
    return 1;
}

void hd_sigint_end(void) {
    signal(SIGINT, previous);
    target = NULL;
}

#endif
