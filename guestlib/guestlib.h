// SPDX-License-Identifier: GPL-2.0
/*
 * guestlib.h: what the two guest programs booted as /init share (the
 * checks, tests/guest/, and the benchmark, bench/guest/): the keys of
 * boot.sh's chk= word, and reading and writing small /proc files.
 * scripts/make-initramfs.sh compiles guestlib.c into both.
 */
#ifndef GUESTLIB_H
#define GUESTLIB_H

#include <stddef.h>

long chk_long(const char *key, long def);
int read_file(const char *path, char *buf, size_t size);
long read_us(const char *path);
int write_raw(const char *path, const char *s, size_t len);
int write_str(const char *path, const char *s);

#endif
