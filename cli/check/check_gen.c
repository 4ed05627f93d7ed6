/*
 * The traffic generators of `uncore check`: each moves a known number of bytes through memory from one
 * CPU, with its buffers on the CPU's NUMA node: placed there with libnuma where the build has it and the
 * kernel does NUMA, else first touched from that CPU, which Linux's default policy places there too.
 * Reads sum the buffer; writes use non-temporal stores (no read for ownership) where the compiler has
 * them; copy does both.  Buffers are made and touched before the measured run, so that the caller's
 * window holds the run alone.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_setaffinity */
#endif
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#ifdef HAVE_LIBNUMA
#include <numa.h>
#endif
#include "check.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *gen_name(enum gen_kind k)
{
	static const char *const names[] = { "streaming read", "non-temporal write", "copy" };
	return names[k];
}

/* A buffer of g->bytes on node (-1: cpu's): libnuma's (page-aligned) where it can, else the heap's. */
static void *gen_alloc(struct gen *g, int cpu, int node)
{
#ifdef HAVE_LIBNUMA
	if (node < 0)
		node = cpu >= 0 && numa_available() >= 0 ? numa_node_of_cpu(cpu) : -1;
	if (node >= 0) {
		g->numa = 1;
		return numa_alloc_onnode(g->bytes, node);
	}
#else
	(void)cpu;
	(void)node;
#endif
	return aligned_alloc(64, g->bytes);
}

const char *gen_placement(void)
{
#ifdef HAVE_LIBNUMA
	if (numa_available() >= 0)
		return "on each socket's NUMA node with libnuma";
#endif
	return "by first touch from a CPU of the socket";
}

int gen_prepare(struct gen *g, enum gen_kind k, int cpu, size_t bytes, char *err, size_t len)
{
	return gen_prepare_on(g, k, cpu, -1, bytes, err, len);
}

int gen_prepare_on(struct gen *g, enum gen_kind k, int cpu, int node, size_t bytes, char *err, size_t len)
{
	memset(g, 0, sizeof(*g));
	g->kind = k;
	g->bytes = bytes & ~(size_t)63;
	g->pinned = -1;
	if (cpu >= 0 && !sched_getaffinity(0, sizeof(g->saved), &g->saved)) {
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (!sched_setaffinity(0, sizeof(one), &one))
			g->pinned = cpu;
	}
	g->a = gen_alloc(g, cpu, node);
	g->b = k == GEN_COPY ? gen_alloc(g, cpu, node) : NULL;
	if (!g->a || (k == GEN_COPY && !g->b)) {
		gen_free(g);
		snprintf(err, len, "cannot allocate %zu MiB for the %s generator", bytes >> 20, gen_name(k));
		return -1;
	}
	memset(g->a, 1, g->bytes); /* first touch, from the pinned CPU: the pages land on its node (or node's) */
	if (g->b)
		memset(g->b, 0, g->bytes);
	return 0;
}

#if defined(__SSE2__)
static void stream_store(void *dst, const void *src, size_t bytes)
{
	__m128i *d = dst;
	const __m128i *s = src;
	__m128i v = _mm_set1_epi8(7);
	for (size_t i = 0; i < bytes / 16; i++)
		_mm_stream_si128(d + i, s ? _mm_load_si128(s + i) : v);
	_mm_sfence();
}
#else
static void stream_store(void *dst, const void *src, size_t bytes)
{
	if (src)
		memcpy(dst, src, bytes);
	else
		memset(dst, 7, bytes);
}
#endif

void gen_go(struct gen *g)
{
	uint64_t t0 = mono_ns();
	if (g->kind == GEN_READ) {
		const volatile uint64_t *p = (const volatile uint64_t *)g->a;
		uint64_t sum = 0;
		for (size_t i = 0; i < g->bytes / 8; i += 8) /* one word a cache line brings the whole line */
			sum += p[i];
		g->sink = sum;
		g->read_bytes = g->bytes;
	} else if (g->kind == GEN_WRITE) {
		stream_store(g->a, NULL, g->bytes);
		g->write_bytes = g->bytes;
	} else {
		stream_store(g->b, g->a, g->bytes);
		g->read_bytes = g->write_bytes = g->bytes;
	}
	g->ns = mono_ns() - t0;
	if (!g->ns)
		g->ns = 1;
}

void gen_free(struct gen *g)
{
#ifdef HAVE_LIBNUMA
	if (g->numa) {
		if (g->a)
			numa_free(g->a, g->bytes);
		if (g->b)
			numa_free(g->b, g->bytes);
		g->a = g->b = NULL;
	}
#endif
	free(g->a);
	free(g->b);
	g->a = g->b = NULL;
	if (g->pinned >= 0)
		sched_setaffinity(0, sizeof(g->saved), &g->saved);
	g->pinned = -1;
}
