/* A bot's start window in C: what workers/sandbox/preexec.py's PythonWindow.preexec does in Python
 * between fork and exec, done here after a vfork and an exec instead (workers/sandbox/spawn_helper.py
 * builds this file and says why). Same steps, same order, same names in a failure report:
 *
 *   ladder-spawn ERRFD [-m SIG]... [-j NAME PATH]... [-r NAME RESOURCE VALUE]... [-n FD] [-u UID]
 *                [-f STEP ERRNO] [-s SIG] -- PROGRAM ARG...
 *
 *   ERRFD  a pipe's write end: on a failed step the step's name, its errno and a kind go there as
 *          "step\0errno\0kind" (what HelperWindow.started() reads) and the helper exits 127; it is
 *          made close-on-exec first, so the parent sees EOF at the exec of PROGRAM and knows it ran
 *   -m     a signal to keep blocked after the start window (the worker thread's own mask)
 *   -j     join a cgroup: write "0" (this process) to PATH; NAME is its hierarchy, for the report
 *   -r     setrlimit(RESOURCE, VALUE, VALUE); NAME for the report
 *   -n     join the network namespace FD (the slot's: workers/sandbox/netns.py), then close FD
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
#include <sched.h>
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

#define MAX_STEPS 32  /* joins and limits: a start has at most 6 and 6 */

int main(int argc, char **argv) {
    if (argc < 3)
        return 127;
    errfd = (int)number(argv[1]);
    if (fcntl(errfd, F_SETFD, FD_CLOEXEC) != 0)
        return 127;
    /* One pass over the options records them; the steps then run in their fixed order. */
    sigset_t keep;
    sigemptyset(&keep);
    int steps[MAX_STEPS], nsteps = 0, raise_first = 0, i = 2;
    long uid = -1, netns = -1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *opt = argv[i];
        int args = strcmp(opt, "-j") == 0 ? 2 : strcmp(opt, "-r") == 0 ? 3 : strcmp(opt, "-f") == 0 ? 2
                 : (strcmp(opt, "-m") == 0 || strcmp(opt, "-s") == 0 || strcmp(opt, "-u") == 0
                    || strcmp(opt, "-n") == 0) ? 1 : -1;
        if (args < 0 || i + args >= argc)
            fail("arguments", EINVAL, "ValueError");
        if (opt[1] == 'j' || opt[1] == 'r') {
            if (nsteps == MAX_STEPS)
                fail("arguments", E2BIG, "ValueError");
            steps[nsteps++] = i;  /* joins and limits keep the order they were given in */
        } else if (opt[1] == 'f') {
            fault_step = argv[i + 1];
            fault_errno = (int)number(argv[i + 2]);
        } else if (opt[1] == 's') {
            raise_first = (int)number(argv[i + 1]);
        } else if (opt[1] == 'm') {
            sigaddset(&keep, (int)number(argv[i + 1]));
        } else if (opt[1] == 'n') {
            netns = number(argv[i + 1]);
        } else {
            uid = number(argv[i + 1]);
        }
        i += args;
    }
    if (i >= argc - 1)
        fail("arguments", EINVAL, "ValueError");
    if (raise_first)
        raise(raise_first);  /* blocked here, as in the parent: it stays pending until "signals" */

    /* signals: ignoring drops one pending since the fork; then the default, then the thread's mask */
    int stops[] = {SIGINT, SIGTERM};
    for (int s = 0; s < 2; s++) {
        check("signals", signal(stops[s], SIG_IGN) == SIG_ERR ? -1 : 0);
        check("signals", signal(stops[s], SIG_DFL) == SIG_ERR ? -1 : 0);
    }
    check("signals", sigprocmask(SIG_SETMASK, &keep, NULL));

    for (int n = 0; n < nsteps; n++) {
        char **opt = &argv[steps[n]], step[128];
        if (opt[0][1] == 'j') {
            snprintf(step, sizeof step, "cgroup join (%s)", opt[1]);
            int fd = open(opt[2], O_WRONLY | O_CLOEXEC);
            check(step, fd < 0 ? -1 : 0);
            check(step, write(fd, "0", 1) == 1 ? 0 : -1);  /* "0": this process, fresh */
            close(fd);
        } else {
            snprintf(step, sizeof step, "setrlimit %s", opt[1]);
            rlim_t value = (rlim_t)number(opt[3]);
            struct rlimit limit = {value, value};
            check(step, setrlimit((int)number(opt[2]), &limit));
        }
    }
    if (netns >= 0) {  /* while still privileged: joining needs CAP_SYS_ADMIN */
        check("network namespace", setns((int)netns, CLONE_NEWNET));
        check("network namespace", close((int)netns));  /* bwrap and the bot never hold it */
    }
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
