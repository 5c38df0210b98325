/* src/core/api/keyval.c - ABT_sched_config and ABT_pool_config: small typed key/value lists.
 * Both are the same object (struct weft_kv): an array of (key, type, value) entries,
 * searched linearly (configs hold a handful of keys).  Reserved keys are negative:
 * sched: -2 access (ignored), -3 automatic, -4 basic_freq; pool: -2 automatic. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched/sched.h"

WEFT_API ABT_sched_config_var ABT_sched_config_var_end = { -1, ABT_SCHED_CONFIG_INT };
WEFT_API ABT_sched_config_var ABT_sched_config_access = { -2, ABT_SCHED_CONFIG_INT };
WEFT_API ABT_sched_config_var ABT_sched_config_automatic = { -3, ABT_SCHED_CONFIG_INT };
WEFT_API ABT_sched_config_var ABT_sched_basic_freq = { -4, ABT_SCHED_CONFIG_INT };
WEFT_API const ABT_pool_config_var ABT_pool_config_automatic = { -2, ABT_POOL_CONFIG_INT };

struct kv_entry {
    int key;
    int type; /* 0 int, 1 double, 2 pointer (same in both enums) */
    union {
        int i;
        double d;
        void *p;
    } v;
};

struct weft_kv {
    int n, cap;
    struct kv_entry *e;
};

static struct kv_entry *kv_find(struct weft_kv *kv, int key)
{
    for (int i = 0; i < kv->n; i++)
        if (kv->e[i].key == key)
            return &kv->e[i];
    return NULL;
}

static int kv_set(struct weft_kv *kv, int key, int type, const void *val)
{
    struct kv_entry *e = kv_find(kv, key);
    if (!val) { /* NULL value deletes the key */
        if (e)
            *e = kv->e[--kv->n];
        return ABT_SUCCESS;
    }
    if (!e) {
        if (kv->n == kv->cap) {
            int cap = kv->cap ? kv->cap * 2 : 4;
            struct kv_entry *ne = realloc(kv->e, (size_t)cap * sizeof(*ne));
            if (!ne)
                return ABT_ERR_MEM;
            kv->e = ne;
            kv->cap = cap;
        }
        e = &kv->e[kv->n++];
    }
    e->key = key;
    e->type = type;
    switch (type) {
    case 0: memcpy(&e->v.i, val, sizeof(int)); break;
    case 1: memcpy(&e->v.d, val, sizeof(double)); break;
    default: memcpy(&e->v.p, val, sizeof(void *)); break;
    }
    return ABT_SUCCESS;
}

static void kv_copy_out(const struct kv_entry *e, void *val)
{
    switch (e->type) {
    case 0: memcpy(val, &e->v.i, sizeof(int)); break;
    case 1: memcpy(val, &e->v.d, sizeof(double)); break;
    default: memcpy(val, &e->v.p, sizeof(void *)); break;
    }
}

static void kv_free(struct weft_kv *kv)
{
    free(kv->e);
    free(kv);
}

static struct weft_kv *sched_kv(ABT_sched_config c)
{
    return (c == NULL || c == ABT_SCHED_CONFIG_NULL) ? NULL : (struct weft_kv *)c;
}

static struct weft_kv *pool_kv(ABT_pool_config c)
{
    return (c == NULL || c == ABT_POOL_CONFIG_NULL) ? NULL : (struct weft_kv *)c;
}

static bool type_ok(int type) { return type >= 0 && type <= 2; }

void weft_sched_config_predef(ABT_sched_config cfg, int *freq, int *automatic)
{
    struct weft_kv *kv = sched_kv(cfg);
    if (!kv)
        return;
    struct kv_entry *e;
    if ((e = kv_find(kv, ABT_sched_basic_freq.idx)) && e->type == 0)
        *freq = e->v.i;
    if ((e = kv_find(kv, ABT_sched_config_automatic.idx)) && e->type == 0)
        *automatic = e->v.i;
}

/* ABT_pool_create (pool_user.c) reads the automatic key here (helper's addition). */
void weft_pool_config_automatic(ABT_pool_config cfg, int *automatic)
{
    struct weft_kv *kv = pool_kv(cfg);
    struct kv_entry *e;
    if (kv && (e = kv_find(kv, ABT_pool_config_automatic.key)) && e->type == 0)
        *automatic = e->v.i;
}

WEFT_API int ABT_sched_config_create(ABT_sched_config *config, ...)
{
    if (!config)
        return ABT_ERR_INV_ARG;
    /* on error *config stays untouched, as in Argobots 1.x */
    struct weft_kv *kv = calloc(1, sizeof(*kv));
    if (!kv)
        return ABT_ERR_MEM;
    va_list ap;
    va_start(ap, config);
    int r = ABT_SUCCESS;
    for (;;) {
        ABT_sched_config_var var = va_arg(ap, ABT_sched_config_var);
        if (var.idx == ABT_sched_config_var_end.idx)
            break;
        if (!type_ok(var.type)) {
            r = ABT_ERR_INV_ARG;
            break;
        }
        union {
            int i;
            double d;
            void *p;
        } v;
        if (var.type == ABT_SCHED_CONFIG_INT)
            v.i = va_arg(ap, int);
        else if (var.type == ABT_SCHED_CONFIG_DOUBLE)
            v.d = va_arg(ap, double);
        else
            v.p = va_arg(ap, void *);
        if (var.idx == ABT_sched_config_access.idx)
            continue; /* obsolete, ignored */
        if ((r = kv_set(kv, var.idx, var.type, &v)) != ABT_SUCCESS)
            break;
    }
    va_end(ap);
    if (r != ABT_SUCCESS) {
        kv_free(kv);
        return r;
    }
    *config = (ABT_sched_config)kv;
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_config_read(ABT_sched_config config, int num_vars, ...)
{
    struct weft_kv *kv = sched_kv(config);
    if (!kv)
        return ABT_ERR_INV_SCHED_CONFIG;
    if (num_vars < 0)
        return ABT_ERR_INV_ARG;
    va_list ap;
    va_start(ap, num_vars);
    for (int i = 0; i < num_vars; i++) {
        void *out = va_arg(ap, void *);
        struct kv_entry *e = kv_find(kv, i);
        if (e && out)
            kv_copy_out(e, out);
    }
    va_end(ap);
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_config_free(ABT_sched_config *config)
{
    if (!config)
        return ABT_ERR_INV_ARG;
    struct weft_kv *kv = sched_kv(*config);
    if (!kv)
        return ABT_ERR_INV_SCHED_CONFIG;
    kv_free(kv);
    *config = ABT_SCHED_CONFIG_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_config_set(ABT_sched_config config, int idx, ABT_sched_config_type type,
                                  const void *val)
{
    struct weft_kv *kv = sched_kv(config);
    if (!kv)
        return ABT_ERR_INV_SCHED_CONFIG;
    if (!type_ok(type))
        return ABT_ERR_INV_ARG;
    return kv_set(kv, idx, type, val);
}

/* The entry `key` into *type and *val (either may be NULL); ABT_ERR_INV_ARG if absent. */
static int kv_get(struct weft_kv *kv, int key, int *type, void *val)
{
    struct kv_entry *e = kv_find(kv, key);
    if (!e)
        return ABT_ERR_INV_ARG;
    if (type)
        *type = e->type;
    if (val)
        kv_copy_out(e, val);
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_config_get(ABT_sched_config config, int idx, ABT_sched_config_type *p_type,
                                  void *val)
{
    struct weft_kv *kv = sched_kv(config);
    if (!kv)
        return ABT_ERR_INV_SCHED_CONFIG;
    int type;
    int r = kv_get(kv, idx, &type, val);
    if (r == ABT_SUCCESS && p_type)
        *p_type = (ABT_sched_config_type)type;
    return r;
}

WEFT_API int ABT_pool_config_create(ABT_pool_config *config)
{
    if (!config)
        return ABT_ERR_INV_ARG;
    struct weft_kv *kv = calloc(1, sizeof(*kv));
    if (!kv)
        return ABT_ERR_MEM; /* *config untouched, as in Argobots 1.x */
    *config = (ABT_pool_config)kv;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_config_free(ABT_pool_config *config)
{
    if (!config)
        return ABT_ERR_INV_ARG;
    struct weft_kv *kv = pool_kv(*config);
    if (!kv)
        return ABT_ERR_INV_POOL_CONFIG;
    kv_free(kv);
    *config = ABT_POOL_CONFIG_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_pool_config_set(ABT_pool_config config, int key, ABT_pool_config_type type,
                                 const void *val)
{
    struct weft_kv *kv = pool_kv(config);
    if (!kv)
        return ABT_ERR_INV_POOL_CONFIG;
    if (!type_ok(type))
        return ABT_ERR_INV_ARG;
    return kv_set(kv, key, type, val);
}

WEFT_API int ABT_pool_config_get(ABT_pool_config config, int key, ABT_pool_config_type *p_type,
                                 void *val)
{
    struct weft_kv *kv = pool_kv(config);
    if (!kv)
        return ABT_ERR_INV_POOL_CONFIG;
    int type;
    int r = kv_get(kv, key, &type, val);
    if (r == ABT_SUCCESS && p_type)
        *p_type = (ABT_pool_config_type)type;
    return r;
}
