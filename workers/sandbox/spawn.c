/* A bot's start window in C: what workers/sandbox/preexec.py's StartWindow.preexec does in Python
 * between fork and exec, done here after a vfork and an exec instead (workers/sandbox/spawn_helper.py
 * builds this file and says why). Same steps, same order, same names in a failure report:
 *
 *   ladder-spawn ERRFD [-m SIG]... [-j NAME PATH]... [-r NAME RESOURCE VALUE]... [-u UID]
 *                [-f STEP ERRNO] [-s SIG] -- PROGRAM ARG...
 *
 *   ERRFD  a pipe's write end: on a failed step the step's name, its errno and a kind go there as
 *          "step\0errno\0kind" (what StartWindow.failure() reads) and the helper exits 127; it is
 *          made close-on-exec first, so the parent sees EOF at the exec of PROGRAM and knows it ran
 *   -m     a signal to keep blocked after the start window (the worker thread's own mask)
 *   -j     join a cgroup: write "0" (this process) to PATH; NAME is its hierarchy, for the report
 *   -r     setrlimit(RESOURCE, VALUE, VALUE); NAME for the report
 *   -u     drop to UID: no supplementary groups, gid = uid, an empty capability bounding set, uid
 *   -f     tests only: report STEP failed with ERRNO when it is reached (it can only fail a start)
 *   -s     tests only: raise SIG first, as a stop signal that reaches the start window would
 *
 * Only system calls and no allocation: the environment and argv are the caller's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

static int errfd = -1;
static const char *fault_step = NULL;
static int fault_errno = 0;

static void fail(const char *step, int code, const char *kind) {
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%s%c%d%c%s", step, 0, code, 0, kind);
    if (errfd >= 0 && n > 0) {
        ssize_t ignored = write(errfd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
        (void)ignored;
    }
    _exit(127);
}

/* A step's result: 0 or -1 with errno; a fault injected for this step wins. */
static void check(const char *step, int result) {
    if (fault_step && strcmp(step, fault_step) == 0)
        fail(step, fault_errno, "OSError");
    if (result != 0)
        fail(step, errno, "OSError");
}

static long number(const char *text) {
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno || *end || end == text)
        fail("arguments", EINVAL, "ValueError");
    return value;
}

int main(int argc, char **argv) {
    if (argc < 3)
        return 127;
    errfd = (int)number(argv[1]);
    if (fcntl(errfd, F_SETFD, FD_CLOEXEC) != 0)
        return 127;
    sigset_t keep;
    sigemptyset(&keep);
    int i = 2, raise_first = 0;
    /* First pass: the options that change how the steps run. */
    for (int k = 2; k < argc && strcmp(argv[k], "--") != 0; k++) {
        if (strcmp(argv[k], "-f") == 0 && k + 2 < argc) {
            fault_step = argv[k + 1];
            fault_errno = (int)number(argv[k + 2]);
            k += 2;
        } else if (strcmp(argv[k], "-s") == 0 && k + 1 < argc) {
            raise_first = (int)number(argv[++k]);
        } else if (strcmp(argv[k], "-m") == 0 && k + 1 < argc) {
            sigaddset(&keep, (int)number(argv[++k]));
        }
    }
    if (raise_first)
        raise(raise_first);  /* blocked here, as in the parent: it stays pending until "signals" */

    /* signals: ignoring drops one pending since the fork; then the default, then the thread's mask */
    int stops[] = {SIGINT, SIGTERM};
    for (int s = 0; s < 2; s++) {
        check("signals", signal(stops[s], SIG_IGN) == SIG_ERR ? -1 : 0);
        check("signals", signal(stops[s], SIG_DFL) == SIG_ERR ? -1 : 0);
    }
    check("signals", sigprocmask(SIG_SETMASK, &keep, NULL));

    long uid = -1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "-j") == 0 && i + 2 < argc) {
            char step[128];
            snprintf(step, sizeof step, "cgroup join (%s)", argv[i + 1]);
            int fd = open(argv[i + 2], O_WRONLY | O_CLOEXEC);
            check(step, fd < 0 ? -1 : 0);
            check(step, write(fd, "0", 1) == 1 ? 0 : -1);  /* "0": this process, fresh */
            close(fd);
            i += 2;
        } else if (strcmp(argv[i], "-r") == 0 && i + 3 < argc) {
            char step[128];
            snprintf(step, sizeof step, "setrlimit %s", argv[i + 1]);
            rlim_t value = (rlim_t)number(argv[i + 3]);
            struct rlimit limit = {value, value};
            check(step, setrlimit((int)number(argv[i + 2]), &limit));
            i += 3;
        } else if (strcmp(argv[i], "-u") == 0 && i + 1 < argc) {
            uid = number(argv[++i]);
        } else if (strcmp(argv[i], "-f") == 0) {
            i += 2;
        } else if (strcmp(argv[i], "-m") == 0 || strcmp(argv[i], "-s") == 0) {
            i += 1;
        } else {
            fail("arguments", EINVAL, "ValueError");
        }
    }
    if (i >= argc - 1)
        fail("arguments", EINVAL, "ValueError");
    if (uid >= 0) {
        check("setgroups", setgroups(0, NULL));
        check("setresgid", setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid));
        for (int cap = 0; cap < 64; cap++) {
            /* EINVAL: past the kernel's last capability */
            if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
                check("capability bounding set", -1);
        }
        check("capability bounding set", 0);  /* where a fault for this step is injected */
        check("setresuid", setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid));
    }
    execv(argv[i + 1], &argv[i + 1]);
    fail("exec", errno, "OSError");
    return 127;
}
