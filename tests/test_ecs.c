/* Tests of the entity-component store: ids, pools, queries, deferred destruction. */
#include "testutil.h"

#include <errno.h>
#include <stdlib.h>

#include "ecs/ecs.h"

struct pos {
	int x, y;
};
struct hp {
	int hp;
};
struct tag {
	char c;
};

static struct ecs_world *mk(int *cpos, int *chp, int *ctag)
{
	struct ecs_world *w;
	assert_int_equal(ecs_world_create(&w), 0);
	*cpos = ecs_register(w, sizeof(struct pos));
	*chp = ecs_register(w, sizeof(struct hp));
	*ctag = ecs_register(w, sizeof(struct tag));
	assert_int_equal(*cpos, 0);
	assert_int_equal(*chp, 1);
	assert_int_equal(*ctag, 2);
	return w;
}

static void test_register(void **state)
{
	(void)state;
	struct ecs_world *w;
	assert_int_equal(ecs_world_create(&w), 0);
	assert_int_equal(ecs_register(w, 0), -EINVAL);
	for (int i = 0; i < ECS_MAX_COMPONENTS; i++)
		assert_int_equal(ecs_register(w, (size_t)i + 1), i);
	assert_int_equal(ecs_register(w, 4), -ENOSPC);
	assert_int_equal(ecs_component_size(w, 5), 6);
	assert_int_equal(ecs_component_size(w, 99), 0);
	ecs_world_destroy(w);
	ecs_world_destroy(NULL);
}

static void test_generations(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *w = mk(&cp, &ch, &ct);
	ecs_entity a, b;
	assert_int_equal(ecs_create(w, &a), 0);
	assert_true(a != ECS_NULL);
	assert_true(ecs_alive(w, a));
	assert_false(ecs_alive(w, ECS_NULL));
	struct pos p = {3, 4};
	assert_non_null(ecs_add(w, a, cp, &p));
	assert_int_equal(ecs_destroy(w, a), 0);
	assert_false(ecs_alive(w, a));
	assert_int_equal(ecs_destroy(w, a), -ENOENT);
	/* The slot is reused with a new generation; the stale id stays dead. */
	assert_int_equal(ecs_create(w, &b), 0);
	assert_int_equal(ECS_INDEX(a), ECS_INDEX(b));
	assert_true(ECS_GEN(b) != ECS_GEN(a));
	assert_false(ecs_alive(w, a));
	assert_null(ecs_get(w, a, cp));
	assert_null(ecs_get(w, b, cp)); /* the new entity starts bare */
	assert_null(ecs_add(w, a, cp, &p));
	assert_false(ecs_has(w, a, cp));
	assert_int_equal(ecs_remove(w, a, cp), -ENOENT);
	assert_int_equal(ecs_destroy(w, a), -ENOENT);
	assert_true(ecs_alive(w, b));
	/* Many cycles on one slot: every old id stays dead. */
	ecs_entity olds[100];
	for (int i = 0; i < 100; i++) {
		olds[i] = b;
		assert_int_equal(ecs_destroy(w, b), 0);
		assert_int_equal(ecs_create(w, &b), 0);
		for (int j = 0; j <= i; j++)
			assert_false(ecs_alive(w, olds[j]));
	}
	assert_int_equal(ecs_count(w), 1);
	ecs_world_destroy(w);
}

static void test_components(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *w = mk(&cp, &ch, &ct);
	ecs_entity e[500];
	for (int i = 0; i < 500; i++) {
		assert_int_equal(ecs_create(w, &e[i]), 0);
		struct pos p = {i, -i};
		assert_non_null(ecs_add(w, e[i], cp, &p));
		if (i % 3 == 0) {
			struct hp h = {i * 10};
			assert_non_null(ecs_add(w, e[i], ch, &h));
		}
	}
	assert_int_equal(ecs_pool_count(w, cp), 500);
	assert_int_equal(ecs_pool_count(w, ch), 167);
	for (int i = 0; i < 500; i++) {
		struct pos *p = ecs_get_mut(w, e[i], cp);
		assert_non_null(p);
		assert_int_equal(p->x, i);
		assert_int_equal(p->y, -i);
		assert_int_equal(ecs_has(w, e[i], ch), i % 3 == 0);
		assert_int_equal(ecs_mask(w, e[i]), ECS_BIT(cp) | (i % 3 == 0 ? ECS_BIT(ch) : 0));
	}
	/* Removing swaps dense entries; everyone else keeps their data. */
	for (int i = 0; i < 500; i += 2)
		assert_int_equal(ecs_remove(w, e[i], cp), 0);
	assert_int_equal(ecs_remove(w, e[0], cp), -ENOENT);
	for (int i = 0; i < 500; i++) {
		struct pos *p = ecs_get_mut(w, e[i], cp);
		if (i % 2 == 0) {
			assert_null(p);
		} else {
			assert_non_null(p);
			assert_int_equal(p->x, i);
		}
		if (i % 3 == 0)
			assert_int_equal(((struct hp *)ecs_get(w, e[i], ch))->hp, i * 10);
	}
	/* Add overwrites; NULL init zeroes. */
	struct pos q = {7, 7};
	ecs_add(w, e[1], cp, &q);
	assert_int_equal(((struct pos *)ecs_get(w, e[1], cp))->x, 7);
	struct pos *z = ecs_add(w, e[1], cp, NULL);
	assert_int_equal(z->x, 0);
	assert_int_equal(z->y, 0);
	assert_null(ecs_add(w, e[1], 17, NULL));
	assert_false(ecs_has(w, e[1], 17));
	assert_false(ecs_has(w, e[1], -1));
	/* Destroy drops every component. */
	assert_int_equal(ecs_destroy(w, e[3]), 0);
	assert_int_equal(ecs_pool_count(w, ch), 166);
	ecs_world_destroy(w);
}

/* Counts entities visited by a query and checks each has the set. */
static int count_query(struct ecs_world *w, uint32_t mask)
{
	struct ecs_query q;
	int n = 0;
	ecs_query_init(&q, w, mask);
	for (ecs_entity e; ecs_query_next(&q, &e);) {
		assert_true(ecs_alive(w, e));
		assert_int_equal(ecs_mask(w, e) & mask, mask);
		n++;
	}
	return n;
}

static void test_queries(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *w = mk(&cp, &ch, &ct);
	ecs_entity e[60];
	for (int i = 0; i < 60; i++) {
		assert_int_equal(ecs_create(w, &e[i]), 0);
		if (i % 2 == 0)
			ecs_add(w, e[i], cp, NULL);
		if (i % 3 == 0)
			ecs_add(w, e[i], ch, NULL);
		if (i % 5 == 0)
			ecs_add(w, e[i], ct, NULL);
	}
	assert_int_equal(count_query(w, ECS_BIT(cp)), 30);
	assert_int_equal(count_query(w, ECS_BIT(ch)), 20);
	assert_int_equal(count_query(w, ECS_BIT(cp) | ECS_BIT(ch)), 10);
	assert_int_equal(count_query(w, ECS_BIT(cp) | ECS_BIT(ch) | ECS_BIT(ct)), 2);
	assert_int_equal(count_query(w, 0), 60);
	assert_int_equal(count_query(w, ECS_BIT(9)), 0); /* unregistered type */
	/* Each matching entity exactly once. */
	int seen[60] = {0};
	struct ecs_query q;
	ecs_query_init(&q, w, ECS_BIT(ch) | ECS_BIT(cp));
	for (ecs_entity x; ecs_query_next(&q, &x);)
		seen[ECS_INDEX(x)]++;
	for (int i = 0; i < 60; i++)
		assert_int_equal(seen[i], i % 6 == 0 ? 1 : 0);
	ecs_world_destroy(w);
}

/* A pool's view lists exactly the entities having the component, each
 * beside its own data, also after removals moved entries about. */
static void test_pool_view(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *w = mk(&cp, &ch, &ct);
	ecs_entity e[40];
	for (int i = 0; i < 40; i++) {
		assert_int_equal(ecs_create(w, &e[i]), 0);
		if (i % 3)
			ecs_add(w, e[i], cp, &(struct pos){ i, -i });
	}
	for (int i = 1; i < 40; i += 7)
		ecs_remove(w, e[i], cp);
	const ecs_entity *ents;
	const void *data;
	uint32_t n = ecs_pool_view(w, cp, &ents, &data);
	assert_int_equal(n, ecs_pool_count(w, cp));
	int seen[40] = {0};
	for (uint32_t k = 0; k < n; k++) {
		const struct pos *p = (const struct pos *)data + k;
		assert_true(ecs_has(w, ents[k], cp));
		assert_ptr_equal(p, ecs_get(w, ents[k], cp));
		assert_int_equal(p->x, (int)ECS_INDEX(ents[k]));
		seen[ECS_INDEX(ents[k])]++;
	}
	for (int i = 0; i < 40; i++)
		assert_int_equal(seen[i], i % 3 && (i - 1) % 7 ? 1 : 0);
	assert_int_equal(ecs_pool_view(w, 9, &ents, &data), 0); /* unregistered type */
	assert_null(ents);
	assert_null(data);
	ecs_world_destroy(w);
}

static void test_modify_while_iterating(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *w = mk(&cp, &ch, &ct);
	ecs_entity e[40];
	for (int i = 0; i < 40; i++) {
		assert_int_equal(ecs_create(w, &e[i]), 0);
		struct hp h = {i};
		ecs_add(w, e[i], ch, &h);
		ecs_add(w, e[i], cp, NULL);
	}
	/* Destroying the current entity and removing its components is safe:
	 * every entity is still visited exactly once. */
	int seen[40] = {0};
	struct ecs_query q;
	ecs_query_init(&q, w, ECS_BIT(ch));
	for (ecs_entity x; ecs_query_next(&q, &x);) {
		int v = ((struct hp *)ecs_get(w, x, ch))->hp;
		seen[v]++;
		if (v % 4 == 0)
			assert_int_equal(ecs_destroy(w, x), 0);
		else if (v % 4 == 1)
			assert_int_equal(ecs_remove(w, x, ch), 0);
		else
			ecs_add(w, x, ct, NULL); /* adding is fine */
	}
	for (int i = 0; i < 40; i++)
		assert_int_equal(seen[i], 1);
	assert_int_equal(ecs_pool_count(w, ch), 20);
	assert_int_equal(ecs_count(w), 30);

	/* Deferred destruction of other entities: all stay visitable and alive
	 * until the flush, then they are gone. */
	int visited = 0;
	ecs_query_init(&q, w, ECS_BIT(cp));
	for (ecs_entity x; ecs_query_next(&q, &x);) {
		visited++;
		for (int i = 0; i < 40; i++)
			if (ecs_alive(w, e[i]))
				assert_int_equal(ecs_destroy_later(w, e[i]), 0);
		assert_true(ecs_pending(w, x));
	}
	assert_int_equal(visited, 30);
	assert_int_equal(ecs_count(w), 30);
	ecs_flush(w);
	assert_int_equal(ecs_count(w), 0);
	assert_int_equal(ecs_pool_count(w, cp), 0);
	assert_int_equal(ecs_pool_count(w, ch), 0);
	assert_int_equal(ecs_destroy_later(w, e[1]), -ENOENT);
	ecs_flush(w); /* empty flush is harmless */
	ecs_world_destroy(w);
}

static void test_slots(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *w = mk(&cp, &ch, &ct);
	ecs_entity a, b, c;
	ecs_create(w, &a);
	ecs_create(w, &b);
	ecs_create(w, &c);
	ecs_destroy(w, b);
	assert_int_equal(ecs_slots(w), 3);
	assert_true(ecs_slot_entity(w, 0) == a);
	assert_true(ecs_slot_entity(w, 1) == ECS_NULL);
	assert_true(ecs_slot_entity(w, 2) == c);
	assert_true(ecs_slot_entity(w, 3) == ECS_NULL);
	ecs_world_destroy(w);
}

/* Saving and restoring a world: same ids, same reuse order afterwards. */
static void test_restore(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *a = mk(&cp, &ch, &ct);
	ecs_entity e[10];
	for (int i = 0; i < 10; i++) {
		assert_int_equal(ecs_create(a, &e[i]), 0);
		struct pos p = {i, i * 2};
		ecs_add(a, e[i], cp, &p);
	}
	ecs_destroy(a, e[3]);
	ecs_destroy(a, e[7]);
	ecs_destroy(a, e[5]);
	ecs_entity again;
	ecs_create(a, &again); /* reuses 5 with generation 2 */
	ecs_destroy(a, again);
	/* "Save": generations, free list, living entities and their data. */
	uint32_t n = ecs_slots(a), gen[16], fl[16], nf = ecs_free_count(a);
	for (uint32_t i = 0; i < n; i++)
		gen[i] = ecs_slot_gen(a, i);
	for (uint32_t i = 0; i < nf; i++)
		fl[i] = ecs_free_at(a, i);
	assert_int_equal(ecs_free_at(a, nf), UINT32_MAX);
	/* "Load". */
	struct ecs_world *b = mk(&cp, &ch, &ct);
	assert_int_equal(ecs_restore_slots(b, n, gen, fl, nf), 0);
	for (uint32_t i = 0; i < n; i++) {
		ecs_entity x = ecs_slot_entity(a, i);
		if (x == ECS_NULL)
			continue;
		assert_int_equal(ecs_create_at(b, x), 0);
		ecs_add(b, x, cp, ecs_get(a, x, cp));
	}
	assert_int_equal(ecs_count(b), ecs_count(a));
	for (int i = 0; i < 10; i++) {
		assert_int_equal(ecs_alive(b, e[i]), ecs_alive(a, e[i]));
		if (ecs_alive(a, e[i]))
			assert_int_equal(((struct pos *)ecs_get(b, e[i], cp))->y, i * 2);
	}
	/* Both go on identically. */
	for (int i = 0; i < 5; i++) {
		ecs_entity xa, xb;
		assert_int_equal(ecs_create(a, &xa), 0);
		assert_int_equal(ecs_create(b, &xb), 0);
		assert_true(xa == xb);
	}
	/* Misuse is refused. */
	assert_int_equal(ecs_restore_slots(b, n, gen, fl, nf), -EBUSY);
	assert_int_equal(ecs_create_at(b, e[0]), -EINVAL); /* alive */
	struct ecs_world *c = mk(&cp, &ch, &ct);
	uint32_t dup[2] = {1, 1};
	assert_int_equal(ecs_restore_slots(c, n, gen, dup, 2), -EINVAL);
	uint32_t out_of_range[1] = {99};
	assert_int_equal(ecs_restore_slots(c, n, gen, out_of_range, 1), -EINVAL);
	assert_int_equal(ecs_restore_slots(c, n, gen, fl, nf), 0);
	assert_int_equal(ecs_create_at(c, ((ecs_entity)gen[fl[0]] << 32) | fl[0]), -EINVAL); /* free */
	assert_int_equal(ecs_create_at(c, ((ecs_entity)(gen[0] + 1) << 32) | 0), -EINVAL); /* wrong gen */
	assert_int_equal(ecs_create_at(c, ((ecs_entity)1 << 32) | 500), -EINVAL); /* no such slot */
	ecs_world_destroy(a);
	ecs_world_destroy(b);
	ecs_world_destroy(c);
}

/* Whether dense index d of pool c is marked written (ecs_written). */
static bool written_at(const struct ecs_world *w, int c, uint32_t d)
{
	const uint64_t *bits;
	uint32_t nw;
	if (ecs_written(w, c, &bits, &nw))
		return true;
	return d / 64 < nw && (bits[d / 64] >> (d % 64)) & 1;
}

/* Tracking writes (the digest's way of knowing what changed): ecs_get_mut,
 * ecs_add and ecs_pool_view_mut mark, ecs_get does not, the clear forgets;
 * adds and removes mark their pools touched. */
static void test_written_marks(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *w = mk(&cp, &ch, &ct);
	ecs_entity e[200];
	for (int i = 0; i < 200; i++) {
		assert_int_equal(ecs_create(w, &e[i]), 0);
		ecs_add(w, e[i], cp, &(struct pos){ i, i });
	}
	ecs_add(w, e[0], ch, &(struct hp){ 5 });
	/* not tracked: any entry may have been written */
	assert_false(ecs_tracks_writes(w));
	assert_true(written_at(w, cp, 3));
	assert_int_equal(ecs_touched(w), 0);
	ecs_track_writes(w);
	assert_true(ecs_tracks_writes(w));
	assert_false(written_at(w, cp, 3));
	/* reading marks nothing */
	assert_int_equal(((const struct pos *)ecs_get(w, e[3], cp))->x, 3);
	assert_false(written_at(w, cp, 3));
	assert_int_equal(ecs_touched(w), 0);
	/* writing marks the entry (past the first 64 too) and its pool */
	((struct pos *)ecs_get_mut(w, e[3], cp))->x = 30;
	((struct pos *)ecs_get_mut(w, e[150], cp))->y = 1;
	assert_true(written_at(w, cp, 3));
	assert_true(written_at(w, cp, 150));
	assert_false(written_at(w, cp, 4));
	assert_false(written_at(w, cp, 149));
	assert_int_equal(ecs_touched(w), ECS_BIT(cp));
	assert_null(ecs_get_mut(w, e[3], ct)); /* lacks it: nothing marked */
	assert_int_equal(ecs_touched(w), ECS_BIT(cp));
	ecs_written_clear(w);
	assert_false(written_at(w, cp, 3));
	assert_false(written_at(w, cp, 150));
	assert_int_equal(ecs_touched(w), 0);
	{
		const uint64_t *bits;
		uint32_t nw;
		assert_false(ecs_written(w, cp, &bits, &nw));
		assert_int_equal(nw, 0); /* no word holds a mark */
		ecs_get_mut(w, e[3], cp);
		assert_false(ecs_written(w, cp, &bits, &nw));
		assert_int_equal(nw, 1); /* only the words up to the last mark */
		ecs_written_clear(w);
	}
	/* an add overwriting marks its entry; a new member touches the pool */
	ecs_add(w, e[0], ch, &(struct hp){ 6 });
	assert_true(written_at(w, ch, 0));
	ecs_add(w, e[1], ct, NULL);
	assert_int_equal(ecs_touched(w), ECS_BIT(ch) | ECS_BIT(ct));
	ecs_written_clear(w);
	/* a remove and a destroy touch the pools they take from */
	assert_int_equal(ecs_remove(w, e[1], ct), 0);
	assert_int_equal(ecs_touched(w), ECS_BIT(ct));
	assert_int_equal(ecs_destroy(w, e[0]), 0);
	assert_int_equal(ecs_touched(w), ECS_BIT(ct) | ECS_BIT(cp) | ECS_BIT(ch));
	ecs_written_clear(w);
	/* a mutable view: the whole pool, until the clear */
	const ecs_entity *ents;
	void *data;
	assert_int_equal(ecs_pool_view_mut(w, cp, &ents, &data), 199);
	assert_true(written_at(w, cp, 77));
	assert_false(written_at(w, ch, 0));
	assert_int_equal(ecs_touched(w), ECS_BIT(cp));
	ecs_written_clear(w);
	assert_false(written_at(w, cp, 77));
	ecs_world_destroy(w);
}

/* Taking a pool's marks (ecs_pool_take_marks, the digest's one call a
 * pool): the view, version and what ecs_written said, then that pool alone
 * unwritten and untouched; the words handed over, once zeroed by the
 * taker, are marked again by the next writes only. */
static void test_take_marks(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *w = mk(&cp, &ch, &ct);
	ecs_entity e[200];
	for (int i = 0; i < 200; i++) {
		assert_int_equal(ecs_create(w, &e[i]), 0);
		ecs_add(w, e[i], cp, &(struct pos){ i, i });
	}
	ecs_add(w, e[0], ch, &(struct hp){ 5 });
	struct ecs_pool_marks m;
	ecs_pool_take_marks(w, cp, &m); /* not tracked: all */
	assert_true(m.all);
	assert_int_equal(m.count, 200);
	ecs_track_writes(w);
	ecs_written_clear(w);
	((struct pos *)ecs_get_mut(w, e[3], cp))->x = 30;
	((struct pos *)ecs_get_mut(w, e[150], cp))->y = 1;
	((struct hp *)ecs_get_mut(w, e[0], ch))->hp = 4;
	assert_int_equal(ecs_touched(w), ECS_BIT(cp) | ECS_BIT(ch));
	ecs_pool_take_marks(w, cp, &m);
	const ecs_entity *ents;
	const void *data;
	assert_int_equal(m.count, ecs_pool_view(w, cp, &ents, &data));
	assert_ptr_equal(m.ents, ents);
	assert_ptr_equal(m.data, data);
	assert_int_equal(m.version, ecs_pool_version(w, cp));
	assert_false(m.all);
	assert_int_equal(m.nwords, 3); /* up to the word of entry 150 */
	assert_int_equal(m.bits[0], 1ULL << 3);
	assert_int_equal(m.bits[1], 0);
	assert_int_equal(m.bits[2], 1ULL << (150 - 128));
	/* that pool alone taken */
	assert_int_equal(ecs_touched(w), ECS_BIT(ch));
	assert_true(written_at(w, ch, 0));
	assert_false(written_at(w, cp, 3));
	for (uint32_t k = 0; k < m.nwords; k++)
		m.bits[k] = 0;
	((struct pos *)ecs_get_mut(w, e[5], cp))->x = 50;
	assert_true(written_at(w, cp, 5));
	assert_false(written_at(w, cp, 3));
	assert_false(written_at(w, cp, 150));
	ecs_pool_take_marks(w, cp, &m);
	assert_int_equal(m.nwords, 1);
	assert_int_equal(m.bits[0], 1ULL << 5);
	m.bits[0] = 0;
	/* a mutable view: all, then forgotten with the take */
	void *mdata;
	ecs_pool_view_mut(w, cp, &ents, &mdata);
	ecs_pool_take_marks(w, cp, &m);
	assert_true(m.all);
	assert_false(written_at(w, cp, 77));
	assert_int_equal(ecs_touched(w), ECS_BIT(ch));
	/* an unknown pool */
	ecs_pool_take_marks(w, 31, &m);
	assert_int_equal(m.count, 0);
	assert_false(m.all);
	ecs_world_destroy(w);
}

/* ecs_pools_version changes with every gain or loss in the pools of its
 * mask (and only with those), and is their versions' sum; ecs_index is
 * where ecs_pool_view lists e's component (what ecs_get points at). */
/* ecs_members_version moves with every gain and loss of any component
 * (add, remove, destroy) and not with data writes; while it stays, every
 * ecs_pools_version stays. */
static void test_members_version(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *w = mk(&cp, &ch, &ct);
	ecs_entity e[8];
	uint32_t m = ecs_members_version(w);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(ecs_create(w, &e[i]), 0);
		struct pos p = {i, i};
		struct tag t = {'t'};
		assert_non_null(ecs_add(w, e[i], cp, &p));
		assert_true(ecs_members_version(w) != m);
		m = ecs_members_version(w);
		assert_non_null(ecs_add(w, e[i], ct, &t));
		assert_true(ecs_members_version(w) != m);
		m = ecs_members_version(w);
		assert_non_null(ecs_add(w, e[i], cp, &p)); /* (had it: no gain) */
		assert_int_equal(ecs_members_version(w), m);
	}
	uint32_t all = ecs_pools_version(w, ECS_BIT(cp) | ECS_BIT(ch) | ECS_BIT(ct));
	((struct pos *)ecs_get_mut(w, e[2], cp))->x = 7;
	assert_int_equal(ecs_members_version(w), m);
	assert_int_equal(ecs_pools_version(w, ECS_BIT(cp) | ECS_BIT(ch) | ECS_BIT(ct)), all);
	assert_int_equal(ecs_remove(w, e[1], ct), 0);
	assert_true(ecs_members_version(w) != m);
	m = ecs_members_version(w);
	assert_int_equal(ecs_destroy(w, e[3]), 0);
	ecs_flush(w);
	assert_true(ecs_members_version(w) != m);
	ecs_world_destroy(w);
}

static void test_pools_version_and_index(void **state)
{
	(void)state;
	int cp, ch, ct;
	struct ecs_world *w = mk(&cp, &ch, &ct);
	const uint32_t both = ECS_BIT(cp) | ECS_BIT(ch);
	ecs_entity e[40];
	uint32_t v = ecs_pools_version(w, both);
	for (int i = 0; i < 40; i++) {
		assert_int_equal(ecs_create(w, &e[i]), 0);
		struct pos p = {i, -i};
		struct hp h = {i};
		assert_non_null(ecs_add(w, e[i], cp, &p));
		uint32_t now = ecs_pools_version(w, both);
		assert_true(now != v);
		v = now;
		if (i % 3 == 0) {
			assert_non_null(ecs_add(w, e[i], ch, &h));
			now = ecs_pools_version(w, both);
			assert_true(now != v);
			v = now;
		}
		struct tag t = {'t'};
		assert_non_null(ecs_add(w, e[i], ct, &t)); /* not in the mask */
		assert_int_equal(ecs_pools_version(w, both), v);
	}
	assert_int_equal(ecs_pools_version(w, both), ecs_pool_version(w, cp) + ecs_pool_version(w, ch));
	assert_int_equal(ecs_pools_version(w, ECS_BIT(ct) | ECS_BIT(30)), ecs_pool_version(w, ct));
	assert_int_equal(ecs_pools_version(w, 0), 0);
	/* a loss in one pool, a data write in none */
	assert_int_equal(ecs_remove(w, e[3], ch), 0);
	assert_true(ecs_pools_version(w, both) != v);
	v = ecs_pools_version(w, both);
	((struct pos *)ecs_get_mut(w, e[4], cp))->x = 99;
	assert_int_equal(ecs_pools_version(w, both), v);
	assert_int_equal(ecs_destroy(w, e[5]), 0);
	ecs_flush(w);
	assert_true(ecs_pools_version(w, both) != v);
	/* the index of each entry as the pool's view lists it */
	const ecs_entity *ents;
	const void *data;
	uint32_t n = ecs_pool_view(w, cp, &ents, &data);
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(ecs_index(w, ents[i], cp), i);
		assert_ptr_equal((const struct pos *)data + i, ecs_get(w, ents[i], cp));
	}
	n = ecs_pool_view(w, ch, &ents, &data);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(ecs_index(w, ents[i], ch), i);
	assert_int_equal(ecs_index(w, e[3], ch), UINT32_MAX); /* lost it */
	assert_int_equal(ecs_index(w, e[4], ch), UINT32_MAX); /* never had it */
	assert_int_equal(ecs_index(w, e[5], cp), UINT32_MAX); /* dead */
	assert_int_equal(ecs_index(w, e[6], 31), UINT32_MAX); /* no such pool */
	ecs_world_destroy(w);
}

/* ecs_get finds a component exactly when ecs_has says e has it: over 3,000
 * random makes, destroys, adds and removes (slots reused), for living,
 * destroyed and stale handles, ECS_NULL, handles of a generation not yet
 * made and pools that do not exist; and on a world restored slot by slot
 * (ecs_restore_slots, ecs_create_at). */
static void test_get_as_has(void **state)
{
	(void)state;
	for (int restored = 0; restored <= 1; restored++) {
		int cp, ch, ct;
		struct ecs_world *w = mk(&cp, &ch, &ct);
		enum { N = 64 };
		ecs_entity seen[4 * N];
		int nseen = 0;
		if (restored) { /* slots 0..9, 3 and 7 free, the others made as they were */
			uint32_t gen[10] = { 1, 2, 5, 1, 3, 1, 1, 4, 1, 2 }, fr[2] = { 3, 7 };
			assert_int_equal(ecs_restore_slots(w, 10, gen, fr, 2), 0);
			for (uint32_t i = 0; i < 10; i++)
				if (i != 3 && i != 7) {
					ecs_entity e = ((ecs_entity)gen[i] << 32) | i;
					assert_int_equal(ecs_create_at(w, e), 0);
					seen[nseen++] = e;
				}
			seen[nseen++] = ((ecs_entity)1 << 32) | 3; /* free: not made */
		}
		struct rng { uint32_t s; } r = { 99u + (uint32_t)restored };
		for (int t = 0; t < 3000; t++) {
			r.s = r.s * 1103515245u + 12345u;
			uint32_t v = r.s >> 8;
			ecs_entity e = nseen ? seen[v % (uint32_t)nseen] : ECS_NULL;
			switch (v % 5) {
			case 0:
				if (nseen < 4 * N && ecs_create(w, &e) == 0)
					seen[nseen++] = e;
				break;
			case 1:
				(void)ecs_destroy(w, e);
				break;
			case 2: {
				struct pos p = { 1, 2 };
				(void)ecs_add(w, e, (int)(v / 5 % 3), &p);
				break;
			}
			case 3:
				(void)ecs_remove(w, e, (int)(v / 5 % 3));
				break;
			default:
				break;
			}
			for (int k = 0; k <= nseen; k++) {
				ecs_entity h = k < nseen ? seen[k] : ECS_NULL;
				ecs_entity next = h + ((ecs_entity)1 << 32); /* the slot's generation after */
				for (int c = -1; c <= 4; c++) {
					assert_int_equal(ecs_get(w, h, c) != NULL, ecs_has(w, h, c));
					assert_int_equal(ecs_get(w, next, c) != NULL, ecs_has(w, next, c));
				}
			}
		}
		ecs_world_destroy(w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register),
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_components),
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_pool_view),
		cmocka_unit_test(test_modify_while_iterating),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_restore),
		cmocka_unit_test(test_written_marks),
		cmocka_unit_test(test_take_marks),
		cmocka_unit_test(test_pools_version_and_index),
		cmocka_unit_test(test_members_version),
		cmocka_unit_test(test_get_as_has),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
