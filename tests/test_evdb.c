/* Tests for platform/evdb: GameControllerDB lines read as SDL 2.26 reads
 * them, lookups by GUID, SDL's joystick GUIDs. */
#include "testutil.h"
#include "logcap.h"
#include "platform/evdb.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One mapping line, read as SDL_GAMECONTROLLERCONFIG's lines are. */
static int addl(struct evdb *db, const char *line, const char *src, int lineno)
{
	return evdb_add_line(db, line, strlen(line), src, lineno, 0);
}

static void test_guid(void **st)
{
	(void)st;
	uint8_t g[16], g2[16];
	char s[33];
	/* an Xbox 360 pad on USB (bus 3), 045e:028e version 0114, named "Test Pad" */
	evdb_guid(3, 0x045e, 0x028e, 0x0114, "Test Pad", g);
	evdb_guid_str(g, s);
	/* SDL 2.26: bus, CRC-16 of the name, vendor, product, version */
	assert_int_equal(evdb_crc16(0, "Test Pad", 8), 0x6ba9);
	assert_string_equal(s, "0300a96b5e0400008e02000014010000");
	/* the CRC SDL's own list names for two pads (crc:15b7, crc:60be) */
	assert_int_equal(evdb_crc16(0, "Lic Pro Controller", 18), 0x15b7);
	assert_int_equal(evdb_crc16(0, "Nintendo Wii Remote", 19), 0x60be);
	assert_int_equal(evdb_guid_parse(s, g2), 0);
	assert_memory_equal(g, g2, 16);
	assert_int_equal(evdb_guid_parse("0300A96B5E0400008E02000014010000", g2), 0);
	assert_memory_equal(g, g2, 16);
	assert_int_equal(evdb_guid_parse("030000005e0400008e0200001401000", g2), -EINVAL);
	assert_int_equal(evdb_guid_parse("030000005e0400008e02000014010000x", g2), -EINVAL);
	assert_int_equal(evdb_guid_parse("0300000g5e0400008e02000014010000", g2), -EINVAL);
	/* no vendor/product (some Bluetooth and virtual devices): the name */
	evdb_guid(0x19, 0, 0x028e, 0x0114, "Retro Pad Deluxe", g);
	evdb_guid_str(g, s);
	/* "Retro Pad D" = 52 65 74 72 6f 20 50 61 64 20 44, as in SDL's own
	 * "050000004c69632050726f20436f6e00" ("Lic Pro Con") */
	char want[33];
	uint16_t crc = evdb_crc16(0, "Retro Pad Deluxe", 16);
	snprintf(want, sizeof want, "1900%02x%02x" "526574726f20506164204400", crc & 0xFF, crc >> 8);
	assert_string_equal(s, want);
}

static const char xbox_line[] =
	"030000005e0400008e02000014010000,Xbox 360 Controller,a:b0,b:b1,back:b6,dpdown:h0.4,"
	"dpleft:h0.8,dpright:h0.2,dpup:h0.1,guide:b8,leftshoulder:b4,leftstick:b9,"
	"lefttrigger:a2,leftx:a0,lefty:a1,rightshoulder:b5,rightstick:b10,righttrigger:a5,"
	"rightx:a3,righty:a4,start:b7,x:b2,y:b3,platform:Linux,\r\n";

static void test_db_lines(void **st)
{
	(void)st;
	struct evdb db = {0};
	logcap_begin();
	assert_int_equal(addl(&db, "# a comment", "t.txt", 1), 1);
	assert_int_equal(addl(&db, "   ", "t.txt", 2), 1);
	assert_int_equal(addl(&db, xbox_line, "t.txt", 3), 0);
	assert_int_equal(db.n, 1);
	assert_string_equal(db.v[0].name, "Xbox 360 Controller");
	assert_string_equal(db.v[0].src, "t.txt");
	assert_int_equal(db.v[0].line, 3);
	assert_int_equal(db.v[0].nbinds, 21); /* every SDL output is kept (SDL's rules need them) */
	/* SDL's special lines are skipped quietly, whatever is in them */
	assert_int_equal(addl(&db, "xinput,XInput,a:b0,platform:Windows,", "t.txt", 4), 1);
	assert_int_equal(addl(&db, "default,Default,a:b0,", "t.txt", 4), 1);
	/* outputs of later SDL versions and fields are quiet; case does not matter */
	assert_int_equal(addl(&db,
		"05000000c82d00000161000000010000,8BitDo,A:b1,misc6:b12,+leftx:b13,-leftx:b14,lefty:a1~,"
		"crc:1234,hint:!SDL_X:=0,", "t.txt", 5), 0);
	assert_int_equal(db.n, 2);
	const struct evdb_entry *e = &db.v[1];
	assert_int_equal(e->nbinds, 4);
	assert_int_equal(e->crc, 0x1234);
	assert_int_equal(e->binds[0].target, EVDB_B_SOUTH);
	assert_int_equal(e->binds[1].out_half, 1);
	assert_int_equal(e->binds[2].out_half, -1);
	assert_true(e->binds[3].invert);
	logcap_end();
	assert_string_equal(logcap_buf, "");

	/* unusable lines: one line each, naming file and line, nothing stored */
	logcap_begin();
	assert_int_equal(addl(&db, "zz0000005e0400008e02000014010000,Pad,a:b0", "t.txt", 6), -EINVAL);
	assert_int_equal(addl(&db, "030000005e0400008e02000014010000", "t.txt", 7), -EINVAL);
	assert_int_equal(addl(&db, "03000000aaaa0000bbbb000001000000,Pad", "t.txt", 8), -EINVAL);
	logcap_end();
	assert_int_equal(db.n, 2);
	assert_int_equal(logcap_lines(logcap_buf), 3);
	assert_non_null(strstr(logcap_buf, "pirogue: t.txt:6: bad gamepad mapping: GUID \"zz00"));
	assert_non_null(strstr(logcap_buf, "t.txt:7: bad gamepad mapping: no controller name"));
	assert_non_null(strstr(logcap_buf, "t.txt:8: bad gamepad mapping: no controller name"));
	assert_non_null(strstr(logcap_buf, "line ignored"));

	/* issue 12 #1: an element SDL cannot use is skipped, the rest of the
	 * line is kept (SDL's "Brook Universal Fighting Board" has leftx:,
	 * "SL-6566" guide:), and the line says once what was skipped */
	logcap_begin();
	assert_int_equal(addl(&db, "03000000cccc0000dddd000001000000,Pad,a:b1,leftx:,dpup:q5,b:b,x=b3,guide:,"
			      "y:b0", "t.txt", 9), 0);
	logcap_end();
	e = &db.v[db.n - 1];
	assert_int_equal(e->nbinds, 2);
	assert_int_equal(e->binds[0].target, EVDB_B_SOUTH);
	assert_int_equal(e->binds[0].index, 1);
	assert_int_equal(e->binds[1].target, EVDB_B_NORTH);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "t.txt:9: gamepad mapping \"Pad\": skipped leftx: (no source), "
				       "dpup:q5 (source is not bN, aN or hN.M), b:b (source is not bN, aN or "
				       "hN.M), x=b3: (unknown output), guide: (no source); the rest of the line is used"));
	/* SDL's reading of sources: blanks dropped, digits read like atoi, any
	 * hat mask, a half and '~' on a button ignored */
	logcap_begin();
	assert_int_equal(addl(&db, "03000000eeee0000ffff000001000000,Odd, a : b 1 0 ,b:b2x,dpdown:h0.7,"
			      "dpup:h1.12junk,leftx:+b3~,", "t.txt", 10), 0);
	logcap_end();
	assert_string_equal(logcap_buf, "");
	e = &db.v[db.n - 1];
	assert_int_equal(e->nbinds, 5);
	assert_int_equal(e->binds[0].index, 10);
	assert_int_equal(e->binds[1].index, 2);
	assert_int_equal(e->binds[2].kind, 'h');
	assert_int_equal(e->binds[2].hatmask, 7);
	assert_int_equal(e->binds[3].index, 1);
	assert_int_equal(e->binds[3].hatmask, 12);
	assert_int_equal(e->binds[4].kind, 'b');
	assert_int_equal(e->binds[4].index, 3);
	/* an element longer than 20 characters ends SDL's reading of the line */
	logcap_begin();
	assert_int_equal(addl(&db, "03000000eeee0000ffff000002000000,Long,a:b0,"
			      "averyveryverylongtarget:b1,b:b2,hint:SDL_A_LONG_HINT_NAME_X:=1,platform:Linux",
			      "t.txt", 11), 0);
	logcap_end();
	e = &db.v[db.n - 1];
	assert_int_equal(e->nbinds, 1);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "averyveryverylongtar: (SDL reads nothing after an element longer "
				       "than 20 characters), b: (SDL reads nothing"));
	/* a line ends at a NUL byte, as SDL's strings do */
	static const char nul[] = "03000000eeee0000ffff000004000000,Nul,a:b0\0,b:b1,";
	assert_int_equal(evdb_add_line(&db, nul, sizeof nul - 1, "t.txt", 12, 0), 0);
	assert_int_equal(db.v[db.n - 1].nbinds, 1);
	/* a long hint: before platform: loses nothing and says nothing */
	logcap_begin();
	assert_int_equal(addl(&db, "03000000eeee0000ffff000003000000,Hinted,a:b0,"
			      "hint:SDL_A_LONG_HINT_NAME_X:=1,platform:Linux", "t.txt", 12), 0);
	logcap_end();
	assert_string_equal(logcap_buf, "");

	/* a text with a bad line in the middle: the others still count */
	int before = db.n;
	logcap_begin();
	int n = evdb_add_text(&db,
		"03000000aaaa0000bbbb000001000000,One,a:b0\n"
		"garbage\n"
		"03000000cccc0000dddd000002000000,Two,a:b0\n", "SDL_GAMECONTROLLERCONFIG", 0);
	logcap_end();
	assert_int_equal(n, 2);
	assert_int_equal(db.n, before + 2);
	assert_int_equal(logcap_lines(logcap_buf), 1);
	assert_non_null(strstr(logcap_buf, "SDL_GAMECONTROLLERCONFIG:2: bad gamepad mapping"));
	evdb_free(&db);

	/* files: a missing one is one line naming it */
	logcap_begin();
	assert_int_equal(evdb_load_file(&db, "/nonexistent/gamecontrollerdb.txt"), -ENOENT);
	logcap_end();
	assert_non_null(strstr(logcap_buf, "/nonexistent/gamecontrollerdb.txt: cannot open"));
	assert_int_equal(logcap_lines(logcap_buf), 1);
	/* SDL's file reader: only lines with "platform:Linux," (comma included);
	 * other platforms quietly, a line without the field said once */
	char path[] = "/tmp/pirogue-test-db-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("# test\n03000000eeee0000ffff000001000000,Three,a:b0,platform:linux,\nbad,line,platform:Linux,\n"
	      "03000000eeee0000ffff000004000000,Mac,a:b0,platform:Mac OS X,\n"
	      "03000000eeee0000ffff000005000000,NoPlatform,a:b0,\n"
	      "03000000eeee0000ffff000006000000,NoComma,a:b0,platform:Linux\n", f);
	fclose(f);
	logcap_begin();
	assert_int_equal(evdb_load_file(&db, path), 1);
	logcap_end();
	unlink(path);
	assert_int_equal(db.n, 1);
	assert_string_equal(db.v[0].name, "Three");
	assert_int_equal(logcap_lines(logcap_buf), 3);
	assert_non_null(strstr(logcap_buf, ":3: bad gamepad mapping"));
	assert_non_null(strstr(logcap_buf, ":5: gamepad mapping skipped: no \"platform:Linux,\" field"));
	assert_non_null(strstr(logcap_buf, ":6: gamepad mapping skipped: no \"platform:Linux,\" field"));
	assert_non_null(strstr(logcap_buf, path));
	evdb_free(&db);
	evdb_free(&db);
	evdb_free(NULL);
}

/* issue 12 #3: hint: fields are evaluated with SDL's defaults (and the
 * environment, as SDL reads it), so of SDL's pairs of lines for one pad
 * the one SDL uses is kept whatever their order. */
static void test_db_hints(void **st)
{
	(void)st;
	struct evdb db = {0};
	static const char pair[] =
		"03000000c82d00000090000011010000,8BitDo FC30 Pro,a:b1,b:b0,x:b4,y:b3,"
		"hint:!SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=1,platform:Linux,\n"
		"03000000c82d00000090000011010000,8BitDo FC30 Pro,a:b0,b:b1,x:b3,y:b4,"
		"hint:SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=1,platform:Linux,\n";
	unsetenv("SDL_GAMECONTROLLER_USE_BUTTON_LABELS");
	assert_true(evdb_hint("SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=1"));
	assert_false(evdb_hint("!SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=1"));
	assert_false(evdb_hint("SDL_GAMECONTROLLER_USE_BUTTON_LABELS"));
	assert_true(evdb_hint("!SDL_GAMECONTROLLER_USE_BUTTON_LABELS,platform:Linux"));
	assert_int_equal(evdb_add_text(&db, pair, "t", 0), 1);
	assert_int_equal(db.n, 1);
	assert_int_equal(db.v[0].binds[0].index, 0); /* a:b0, the labels variant */
	assert_int_equal(db.v[0].line, 2);
	evdb_free(&db);
	setenv("SDL_GAMECONTROLLER_USE_BUTTON_LABELS", "0", 1);
	assert_false(evdb_hint("SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=1"));
	assert_int_equal(evdb_add_text(&db, pair, "t", 0), 1);
	assert_int_equal(db.v[0].binds[0].index, 1); /* a:b1, the position variant */
	evdb_free(&db);
	setenv("SDL_GAMECONTROLLER_USE_BUTTON_LABELS", "FALSE", 1);
	assert_false(evdb_hint("SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=1"));
	setenv("SDL_GAMECONTROLLER_USE_BUTTON_LABELS", "yes", 1);
	assert_true(evdb_hint("SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=0"));
	setenv("SDL_GAMECONTROLLER_USE_BUTTON_LABELS", "", 1);
	assert_false(evdb_hint("SDL_GAMECONTROLLER_USE_BUTTON_LABELS:=0"));
	unsetenv("SDL_GAMECONTROLLER_USE_BUTTON_LABELS");
}

/* issue 11 defect 11: SDL_GAMECONTROLLERCONFIG and a file go through one
 * reader: a long line with leading blanks is read whole from both (the
 * variable's line used to be cut at 2049 bytes before the blanks were
 * trimmed, so a:b10 became a:b1). */
static void test_db_long_line(void **st)
{
	(void)st;
	static const char tail[] = "03000000aaaa0000bbbb000001000000,N,a:b10";
	size_t lead = 2049 - (sizeof tail - 1) + 1; /* the old cut falls inside "b10" */
	char *text = malloc(lead + sizeof tail);
	assert_non_null(text);
	memset(text, ' ', lead);
	memcpy(text + lead, tail, sizeof tail);
	struct evdb db = {0};
	assert_int_equal(evdb_add_text(&db, text, "SDL_GAMECONTROLLERCONFIG", 0), 1);
	assert_int_equal(db.v[0].binds[0].index, 10);
	evdb_free(&db);
	char path[] = "/tmp/pirogue-test-db-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fprintf(f, "%s,platform:Linux,\n", text);
	fclose(f);
	assert_int_equal(evdb_load_file(&db, path), 1);
	unlink(path);
	assert_int_equal(db.v[0].binds[0].index, 10);
	evdb_free(&db);
	free(text);
}

static void test_db_find(void **st)
{
	(void)st;
	struct evdb db = {0};
	uint8_t g[16];
	assert_int_equal(evdb_add_text(&db,
		"030000005e0400008e02000010010000,Old firmware,a:b0\n"
		"03001234aaaa0000bbbb000001000000,With CRC,a:b0\n"
		"030000005e0400008e02000014010000,Exact,a:b0\n"
		"05000000cccc0000dddd000001000000,Named A,crc:1111,a:b0\n", "t", 0), 4);
	assert_int_equal(evdb_guid_parse("030000005e0400008e02000014010000", g), 0);
	assert_string_equal(evdb_find(&db, g)->name, "Exact");
	/* the device's CRC does not have to match a line without one */
	assert_int_equal(evdb_guid_parse("0300abcd5e0400008e02000014010000", g), 0);
	assert_string_equal(evdb_find(&db, g)->name, "Exact");
	/* another version: the first line that matches ignoring it */
	assert_int_equal(evdb_guid_parse("030000005e0400008e02000099990000", g), 0);
	assert_string_equal(evdb_find(&db, g)->name, "Old firmware");
	/* a line's GUID CRC is its crc: the device with that name CRC first */
	assert_int_equal(evdb_guid_parse("03001234aaaa0000bbbb000001000000", g), 0);
	assert_string_equal(evdb_find(&db, g)->name, "With CRC");
	assert_int_equal(db.v[1].crc, 0x3412); /* little-endian, as SDL reads it */
	/* another bus: no match */
	assert_int_equal(evdb_guid_parse("050000005e0400008e02000014010000", g), 0);
	assert_null(evdb_find(&db, g));
	/* a later line for a GUID replaces the earlier one in place, as SDL's
	 * list does (the shipped database, then the user's file, then
	 * SDL_GAMECONTROLLERCONFIG) */
	assert_int_equal(evdb_add_text(&db, "030000005e0400008e02000010010000,Mine,a:b3\n"
					      "05000000cccc0000dddd000001000000,Named B,a:b1\n", "env", 0), 2);
	assert_int_equal(db.n, 4);
	assert_string_equal(db.v[0].name, "Mine");
	assert_string_equal(db.v[0].src, "env");
	assert_int_equal(db.v[0].line, 1);
	assert_string_equal(db.v[3].name, "Named B");
	assert_int_equal(evdb_guid_parse("030000005e0400008e02000099990000", g), 0);
	assert_string_equal(evdb_find(&db, g)->name, "Mine");
	evdb_free(&db);
}

/* The shipped database (gamepads/gamecontrollerdb.txt, SDL 2.26's own) is
 * taken line by line as SDL takes it. */
static void test_shipped_database(void **st)
{
	(void)st;
	char path[512];
	test_data_path(path, sizeof path, "gamepads/gamecontrollerdb.txt");
	unsetenv("SDL_GAMECONTROLLER_USE_BUTTON_LABELS");
	/* SDL's 307 pads, the two lines with empty sources said once each, the
	 * 40 hinted twins skipped */
	struct evdb db = {0};
	logcap_begin();
	assert_int_equal(evdb_load_file(&db, path), 307);
	logcap_end();
	assert_int_equal(db.n, 307);
	assert_int_equal(logcap_lines(logcap_buf), 2);
	assert_non_null(strstr(logcap_buf, "\"Brook Universal Fighting Board\": skipped leftx: (no source), lefty: "
				       "(no source), rightx: (no source), righty: (no source)"));
	assert_non_null(strstr(logcap_buf, "\"SL-6566\": skipped guide: (no source)"));
	evdb_free(&db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guid),
		cmocka_unit_test(test_db_lines),
		cmocka_unit_test(test_db_hints),
		cmocka_unit_test(test_db_long_line),
		cmocka_unit_test(test_db_find),
		cmocka_unit_test(test_shipped_database),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
