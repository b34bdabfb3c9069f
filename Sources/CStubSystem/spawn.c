#ifdef __linux__
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include "CStubSystem.h"

int cstub_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
                int input, int output, int error) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int result = posix_spawn_file_actions_init(&actions);
    if (result != 0) return result;
    result = posix_spawnattr_init(&attributes);
    if (result != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return result;
    }
    sigset_t none, pipe;
    sigemptyset(&none);
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    if (!result) result = posix_spawnattr_setsigmask(&attributes, &none);
    if (!result) result = posix_spawnattr_setsigdefault(&attributes, &pipe);
    if (!result) result = posix_spawnattr_setpgroup(&attributes, 0);
    if (!result)
        result = posix_spawnattr_setflags(
            &attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (!result) result = posix_spawn_file_actions_adddup2(&actions, input, 0);
    if (!result) result = posix_spawn_file_actions_adddup2(&actions, output, 1);
    if (!result) result = posix_spawn_file_actions_adddup2(&actions, error, 2);
    if (!result) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (!result && directory) result = posix_spawn_file_actions_addchdir_np(&actions, directory);
    if (!result) result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return result;
}
#endif
