"""The VM rig's boot of the Raspberry Pi card image (configuration
aarch64-image, docs/vmrig.md and docs/image.md): the image board/make-image
writes, its own kernel, initrd and root file system, booted in QEMU's arm64
`virt` machine (virtio-gpu, USB keyboard) as the Pi's firmware would boot
them: the kernel command line is the card's cmdline.txt. The Pi's firmware,
its GPU (vc4) and its SD controller cannot be emulated here; everything from
the kernel on is the card's.

The rig reaches the guest through a root shell on the serial console that
the image starts only with `pirogue.rig-shell` on the kernel command line
(pirogue-image-rig.service); the card as written has no login anywhere.

Checks: the title equals the headless frame; no getty and no login prompt
on any VT; the kiosk checks of the systemd boot (security, keys, gamepad,
Ctrl+Alt+F2, SIGKILL); the state partition grown to fill the disk; a game
saved, then QEMU killed, continued at the next boot, which also times the
title against a getty's login prompt on tty2 asked for at that boot only
(boot-time); VMRIG_IMAGE_CUTS power cuts (QEMU killed at a random moment
while the game is saving over and over: default 2, 20 for the full run)
each leave a state partition that mounts and a save that loads; a full
state partition and one damaged beyond repair both still boot into the
game, which says it cannot save; the root partition's bytes unchanged after
all of it. Five boots with 2 cuts (each cut one more)."""
import hashlib
import os
import random
import re
import shutil
import subprocess
import time

import sysboot
import vmtest

# The card: its partitions start at these MiB (board/make-image).
FIRST_MIB = 4
BOOT_MIB = 256
# How much bigger than the image the rig's "card" is: the state partition
# must grow into it at the first boot.
CARD_EXTRA_MIB = 128
CUTS = int(os.environ.get('VMRIG_IMAGE_CUTS', '2'))
W = vmtest.W
# Power on to the title, under TCG: a card boot reads its root from a gzip
# squashfs and checks and mounts the state partition before the game starts.
# Measured (docs/vmrig.md): 46 s for the first boot on a quiet machine, 85-140 s
# for a boot after the first and 150-210 s for the first (the state
# partition grown, checked, its file system grown, then mounted) on the
# loaded 2-core one. Each budget is nominal seconds that the wait may take
# W times (the tests' wait factor, 6: sysboot's wait_screen, sh, ready): it
# ends a hang (a device timeout is 90 s more), not a slow boot; the real
# time is printed.
TITLE_LIMIT = 40
FIRST_TITLE_LIMIT = 60
# A frame the game must show after a key, a restart or a boot's shell: a
# second or two on a quiet machine.
SCREEN = 10
# How much of the screen the title's notice line (games cannot be saved)
# may take where it differs from the plain title (pixel rows): a screen
# that is not the title differs almost everywhere.
NOTICE_ROWS = 40
# The power cuts' saves: each run of the game continues the save, makes
# these moves and saves as it exits (as the pirogue user, the kiosk stopped:
# one game at a time plays from a state directory).
CUT_KEYS = ['enter', 'l', 'h']


def partitions(path):
    """[(start_byte, size_bytes)] of the image's MBR partitions 1..4."""
    with open(path, 'rb') as f:
        mbr = f.read(512)
    parts = []
    for i in range(4):
        e = mbr[446 + 16 * i: 446 + 16 * (i + 1)]
        start = int.from_bytes(e[8:12], 'little')
        size = int.from_bytes(e[12:16], 'little')
        if size:
            parts.append((start * 512, size * 512))
    return parts


def digest(path, start, size):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        f.seek(start)
        left = size
        while left:
            b = f.read(min(left, 1 << 20))
            if not b:
                break
            h.update(b)
            left -= len(b)
    return h.hexdigest()


class ImageBoot(sysboot.SysBoot):
    def __init__(self, rig, cfg):
        super().__init__(rig, cfg)
        self.imgdir = os.path.join(self.args.cache, 'image')
        self.image = os.path.join(self.imgdir, 'pirogue-pi-arm64.img')

    def qemu_cmd(self, extra_append=''):
        """The card's kernel and initrd, its cmdline.txt (plus the rig's serial
        shell), the whole card as a raw disk (written back as a card is)."""
        with open(os.path.join(self.imgdir, 'cmdline.txt')) as f:
            card = f.read().split()
        append = card + [f'console={self.serial},115200', 'pirogue.rig-shell'] + ([extra_append] if extra_append else [])
        return self.machine(os.path.join(self.imgdir, 'vmlinuz'), os.path.join(self.imgdir, 'initrd.img'),
                            append, 'raw,cache=writeback')

    # Nor, on the card, the state partition's chores: the game starts beside
    # them, opens its display and waits for their file (--state-wait;
    # board/image/pirogue-service.conf), not for the unit's end.
    NOT_AFTER = sysboot.SysBoot.NOT_AFTER + ('pirogue-image-state',)

    # the image masks getty@.service: the rig's boot-time boot asks for a
    # copy of its lines for tty2 (board/make-image)
    TIMED_GETTY = 'vmrig-getty-tty2.service'

    def ready(self, t0, timeout=FIRST_TITLE_LIMIT):
        self.shell_up(t0, timeout)
        # the root is read-only and /run noexec: the helper runs from the share
        self.sh('mount -t 9p -o trans=virtio,version=9p2000.L host /mnt && export PATH=/mnt:$PATH')
        return time.monotonic() - t0

    def use_seed(self):
        """The drop-in with --seed 1, in /run (the root is read-only)."""
        self.sh('mkdir -p /run/systemd/system/pirogue.service.d && printf "' +
                sysboot.DROPIN.replace('\n', '\\n') +
                '" >/run/systemd/system/pirogue.service.d/vmrig.conf && systemctl daemon-reload && '
                'systemctl restart pirogue.service')
        start = self.headless([], 1, 'seed1')
        if self.wait_screen(start, 'seed1', SCREEN) is None:
            raise RuntimeError(f'with --seed 1 the game did not show the headless start frame within {SCREEN * W:.0f} s')

    def plain_unit(self):
        self.sh('rm -f /run/systemd/system/pirogue.service.d/vmrig.conf && systemctl daemon-reload && '
                'systemctl restart pirogue.service')

    # ------------------------------------------------------------ the run

    def run(self):
        if not os.path.exists(self.image):
            return self.report('FAIL', 'image', f'no card image {self.image} (board/make-image builds it)')
        os.makedirs(self.out, exist_ok=True)
        self.share = os.path.join(self.out, 'share')
        shutil.rmtree(self.share, ignore_errors=True)
        os.makedirs(self.share)
        shutil.copy(os.path.join(self.args.cache, f'bin-{self.arch}', 'vmhelper'), self.share)
        parts = partitions(self.image)
        if len(parts) != 3 or parts[0][0] != FIRST_MIB << 20 or parts[0][1] != BOOT_MIB << 20:
            return self.report('FAIL', 'image', f'the card\'s partitions are {parts} (want boot, root, state)')
        self.root_part = parts[1]
        self.root_before = digest(self.image, *self.root_part)
        # the "card": a copy of the image, bigger than it
        self.disk = os.path.join(self.out, 'card.img')
        subprocess.run(['cp', '--sparse=always', self.image, self.disk], check=True)
        with open(self.disk, 'r+b') as f:
            f.truncate(os.path.getsize(self.image) + (CARD_EXTRA_MIB << 20))
        try:
            self.first_boot()
            # boot 2 (boot-time, the cut's Continue) goes on into the power
            # cuts; the boot that checks the last cut fills the partition
            self.after_cut_boot()
            self.cuts()
            self.full_state()
            self.shutdown()
            self.damaged_state_boot()
            self.root_unchanged()
        finally:
            self.shutdown()

    def first_boot(self):
        title = self.headless([], None, 'title')
        t0 = self.boot()
        took = self.wait_screen(title, 'title', FIRST_TITLE_LIMIT)
        up = self.ready(t0)
        if took is None:
            self.report('FAIL', 'title', f'the title was not on the display within {FIRST_TITLE_LIMIT} s of '
                        f'power on (see {self.g.outdir}/title.png and title-expected.png)')
        else:
            self.report('PASS', 'title', f'power on to the title, the card\'s own kernel, initrd and root: '
                        f'{took:.1f} s (shell up at {up:.0f} s), equal to the headless frame at '
                        f'{sysboot.SIZE[0]}x{sysboot.SIZE[1]}')
        self.critical_chain()
        self.state_writable('first boot')
        self.no_login()
        self.grown()
        self.play(('security', 'keys', 'gamepad', 'ctrl_alt_fn', 'sigkill'))
        self.prepare_cut()
        self.shutdown(hard=True)

    def before_cut(self):
        """As the systemd boot's, with the drop-in in /run."""
        self.g.send_keys(self.SAVED)
        played = self.headless(self.SAVED, 1, 'saved')
        if self.wait_screen(played, 'saved', SCREEN) is None:
            raise RuntimeError(f'after {" ".join(self.SAVED)}: {self.why_not(played, "saved")}')
        self.plain_unit()
        title = self.saved_title()
        if self.wait_screen(title, 'saved-title', SCREEN) is None:
            ls = self.out1('ls -la /state/pirogue/ | tail -n +2')
            raise RuntimeError(f'restarted, the title with Continue did not show: {self.why_not(title, "saved-title")}'
                               f'; the state directory: {ls!r}; journal: {self.journal(10)}')
        self.g.send_keys(['enter'])
        if self.wait_screen(played, 'continued', SCREEN) is None:
            raise RuntimeError(f'Continue did not show the saved game: {self.why_not(played, "continued")}')
        self.g.send_keys(self.UNSAVED)
        if self.wait_change(played, 'unsaved', SCREEN) is None:
            raise RuntimeError(f'{" ".join(self.UNSAVED)} did not change the screen: the check would prove nothing')
        self.cut = played

    def wait_change(self, exp, name, timeout):
        """Takes screendumps until the screen differs from exp; returns the
        seconds it took, or None. timeout: nominal seconds (W times that)."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout * W:
            if self.why_not(exp, name) is not None:
                return time.monotonic() - t0
            time.sleep(0.3)
        return None

    def wait_notice(self, exp, name, timeout):
        """Takes screendumps until the screen is exp but for a notice (the
        pixel rows where they differ within NOTICE_ROWS of each other);
        returns (first, last) of those rows, or None (the last look saved as
        NAME.png). timeout: nominal seconds (W times that)."""
        end = time.monotonic() + timeout * W
        img = None
        while time.monotonic() < end:
            img = self.dump(name)
            if img[:2] == exp[:2]:
                w = img[0] * 3
                rows = [y for y in range(img[1]) if img[2][y * w:(y + 1) * w] != exp[2][y * w:(y + 1) * w]]
                if rows and rows[-1] - rows[0] < NOTICE_ROWS:
                    vmtest.write_png(os.path.join(self.g.outdir, f'{name}.png'), img)
                    return rows[0], rows[-1]
            time.sleep(0.3)
        if img:
            vmtest.write_png(os.path.join(self.g.outdir, f'{name}.png'), img)
        return None

    def no_login(self):
        """No getty on any VT or serial line, no login prompt on tty1..tty6."""
        units = self.out1('systemctl list-units --no-legend --plain --state=active "getty@*" "serial-getty@*" '
                          '"autovt@*" "console-getty*" "getty-static*" "vmrig-getty*" 2>/dev/null | cut -d" " -f1 | tr "\\n" " "')
        prompts = []
        for n in range(1, 7):
            vcs = self.out1(f'cat /dev/vcs{n} 2>/dev/null | tr -s " "')
            if 'login:' in vcs:
                prompts.append(f'tty{n}')
        if units.strip() or prompts:
            return self.report('FAIL', 'no-login', f'getty units active: {units.strip() or "none"}; '
                               f'login prompts on: {", ".join(prompts) or "none"}')
        self.report('PASS', 'no-login', 'no getty unit active (getty@, serial-getty@, autovt@, console-getty, vmrig-getty, '
                    'getty-static) and no login prompt on tty1..tty6')

    def grown(self):
        """The card's partition table (as written: sfdisk -d) has p3 ending at
        the disk's end, and its file system fills it."""
        out = self.out1('blockdev --getsz /dev/vda; sfdisk -d /dev/vda | sed -n "s|^/dev/vda3 : start= *\\([0-9]*\\), '
                        'size= *\\([0-9]*\\),.*|\\1 \\2|p"; df -k --output=size /state | tail -n 1')
        try:
            total, start, size, fs_kib = (int(v) for v in out.split())
        except ValueError:
            return self.report('FAIL', 'grow', f'could not read the state partition\'s size: {out!r}')
        end_ok = start + size + 2048 >= total
        fs_ok = fs_kib * 2 > size * 0.8
        if not (end_ok and fs_ok):
            return self.report('FAIL', 'grow', f'state partition {start}+{size} of {total} sectors, its file '
                               f'system {fs_kib} KiB: not grown to the end of the card')
        self.report('PASS', 'grow', f'first boot: the state partition grew to the end of the card '
                    f'({size // 2048} MiB, its file system {fs_kib // 1024} MiB; the image had 64 MiB)')

    def after_cut_boot(self):
        """Boot 2: the boot-time boot (a getty on tty2 for this boot only,
        sysboot.TIMED_APPEND), and the saved game continued after the cut.
        It goes on (cuts) without a shutdown."""
        t0 = self.boot(sysboot.TIMED_APPEND.format(getty=self.TIMED_GETTY))
        title = self.saved_title() if self.cut else self.headless([], None, 'title')
        took = self.wait_screen(title, 'after-cut-title', TITLE_LIMIT)
        self.ready(t0, TITLE_LIMIT)
        self.boot_time(took)
        self.state_timing()
        self.state_writable('boot-time boot')
        if self.cut is None or took is None:
            self.report('FAIL', 'power-cut', 'after the power cut the title with Continue did not show '
                        f'within {TITLE_LIMIT * W:.0f} s (see {self.g.outdir})' if self.cut else
                        'no power cut was made (the check before it failed)')
            return
        self.g.send_keys(['enter'])
        if self.wait_screen(self.cut, 'after-cut', SCREEN) is None:
            self.report('FAIL', 'power-cut', f'Continue after the power cut: {self.why_not(self.cut, "after-cut")}')
        else:
            self.report('PASS', 'power-cut', f'QEMU killed after {" ".join(self.UNSAVED)} (not saved): the next '
                        f'boot offered Continue, which restored the game as saved (after {" ".join(self.SAVED)})')

    def state_timing(self):
        """Printed, not a verdict: at the boot-time boot, when the game had
        opened its display and waited for the state partition (its line,
        only when it had to wait) and when pirogue-image-state let it go on,
        in the guest's seconds since its kernel started."""
        out = self.out1('journalctl -b --no-pager -o short-monotonic -u pirogue.service -u pirogue-image-state.service '
                        '| grep -E "before using the state directory|state directory .* is ready|plays without saving" '
                        '| head -n 3 | tr "\\n" " "')
        print(f'vmrig: {self.cfg["name"]} the state partition at the boot-time boot (guest seconds; the kernel '
              f'started {self.kernel_at:.1f} s after power on): {out or "no line of the game or the chores"}', flush=True)

    def state_writable(self, boot):
        """The game's own view of its directory (its mount namespace, made
        when the unit started, before the state partition was mounted when
        it waited for it; at the first boot the mount is often retried by
        pirogue-image-state after the game started): read-write, the pirogue
        user's, so that its saves work (a later mount reaches it by
        propagation, an earlier one through ReadWritePaths=;
        board/image/pirogue-service.conf)."""
        out = self.out1('p=$(systemctl show -P MainPID pirogue.service); '
                        'nsenter -t "$p" -m findmnt -n -o OPTIONS --target /state/pirogue | cut -d, -f1; '
                        'nsenter -t "$p" -m stat -c "%U %a" /state/pirogue; '
                        'journalctl -b --no-pager -o cat -u pirogue.service | grep -c "before using the state directory"')
        parts = out.split()
        check = 'state-rw' if boot == 'boot-time boot' else 'state-rw-first'
        if len(parts) != 4 or parts[:3] != ['rw', 'pirogue', '700']:
            return self.report('FAIL', check, f'{boot}: the game\'s view of /state/pirogue: {out!r} (want rw, pirogue 700)')
        waited = ('waited for the state partition after opening its display' if parts[3] != '0' else
                  'found the state ready at its start')
        self.report('PASS', check, f'{boot}: in the game\'s own mount namespace /state/pirogue is read-write, the '
                    f'pirogue user\'s (mode 700); the game {waited}')

    def check_save(self):
        """The guest's --check-save of the game's save: (ok, its turn or None,
        what it said)."""
        out = self.out1('/usr/games/pirogue --config /dev/null --check-save /state/pirogue/pirogue.sav 2>&1; '
                        'echo "rc=$?"')
        m = re.match(r'ok turn (\d+) ', out)
        ok = out.endswith('rc=0') and m is not None
        return ok, int(m.group(1)) if m else None, out.replace('\n', ' ')

    # The power cuts' game runs as the unit's user with the unit's state
    # directory (/state/pirogue, the pirogue user's: board/image/pirogue-service.conf),
    # one at a time: the kiosk is stopped first (a state directory has one player).
    AS_UNIT = ('systemctl stop pirogue.service; systemd-run -q {how} -p DynamicUser=yes -p User=pirogue '
               '-p Group=pirogue -p ReadWritePaths=/state/pirogue -p UMask=0077 ')
    GAME = '/usr/games/pirogue --config /dev/null --backend headless --state-dir /state/pirogue'
    # The loop of saves the power cuts fall into: each run of the game
    # continues the save, plays CUT_KEYS and saves as it ends; after each run
    # the save's turn goes to the serial console (VMRIG_SAVED: that save was
    # complete, its rename and the directory's fsync done, before the line).
    SAVE_LOOP = ('printf "%s\\n" {keys} >/run/vmrig-cut.keys; ' + AS_UNIT.format(
        how='--unit=vmrig-saves -p StandardOutput=file:/dev/ttyAMA0 -p StandardError=file:/dev/ttyAMA0') +
        "/bin/sh -c 'while :; do " + GAME + ' --keys /run/vmrig-cut.keys >/dev/null 2>&1 && echo "VMRIG_SAVED '
        '$(/usr/games/pirogue --config /dev/null --check-save /state/pirogue/pirogue.sav 2>&1)"; done' + "'")
    # The game the loop plays, new at each boot (seed 4: its player outlives
    # the 400 runs of CUT_KEYS tried on the host, a boot's loop makes at most
    # about 30; seed 1's dies within 15). A oneshot: systemd-run returns when
    # it has saved (its --wait needs D-Bus, which the image has not).
    NEW_GAME = ('rm -f /state/pirogue/pirogue.sav; printf "%s\\n" l h >/run/vmrig-new.keys; ' +
                AS_UNIT.format(how='-p Type=oneshot') + GAME + ' --seed 4 --keys /run/vmrig-new.keys')

    def cuts(self):
        """CUTS power cuts: the game saving over and over (SAVE_LOOP), QEMU
        killed at a random moment (seeded: the same moments every run); each
        next boot must mount the state partition read-write, and its save
        must load and be the newest the loop finished or the one it was
        writing (its turn at least the last VMRIG_SAVED one, at most one run
        of CUT_KEYS further). The boot that checks one cut is the one the
        next cut ends."""
        rnd = random.Random(20)
        delay = last = None
        saves = 0
        newest = during = 0
        for i in range(CUTS + 1):
            if i:
                t0 = self.boot()
                self.ready(t0, TITLE_LIMIT)
            mounted = self.out1('mountpoint -q /state && echo mounted; findmnt -n -o OPTIONS /state | cut -d, -f1')
            ok, turn, said = self.check_save()
            if delay is not None:
                good = 'mounted' in mounted and mounted.endswith('rw') and ok and \
                    last <= turn <= last + len(CUT_KEYS)
                if not good:
                    self.report('FAIL', f'cut-{i}', f'QEMU killed {delay:.1f} s after the first save of a loop of saves ({saves} '
                                f'finished, the last at turn {last}): /state {mounted!r}, the save: {said}')
                else:
                    which = 'the newest finished' if turn == last else 'the one being written'
                    newest += turn == last
                    during += turn != last
                    self.report('PASS', f'cut-{i}', f'QEMU killed {delay:.1f} s after the first save of a loop of saves ({saves} '
                                f'finished, the last at turn {last}): the state partition mounted read-write, '
                                f'the save loads at turn {turn} ({which})')
            if i == CUTS:
                break
            self.sh(self.NEW_GAME)
            ok, turn, said = self.check_save()
            if not ok:
                return self.report('FAIL', 'cuts', f'boot {self.boots}: no save to play on ({said})')
            mark = self.g.mark()
            self.sh(self.SAVE_LOOP.format(keys=' '.join(CUT_KEYS)))
            # the cut falls into the loop: counted from its first save
            if not self.g.wait_line('VMRIG_SAVED ', mark, 20 * W):
                return self.report('FAIL', 'cuts', f'boot {self.boots}: the loop of saves finished none within '
                                   f'{20 * W:.0f} s')
            delay = rnd.uniform(3.0, 15.0)
            time.sleep(delay)
            g = self.g
            self.shutdown(hard=True)
            with g.lock:
                lines = g.history[mark:]
            turns = [int(m.group(1)) for m in (re.search(r'VMRIG_SAVED ok turn (\d+) ', ln) for ln in lines) if m]
            saves = len(turns)
            last = turns[-1] if turns else turn
        if CUTS:
            self.report('PASS' if newest + during == CUTS else 'FAIL', 'cuts',
                        f'{newest + during} of {CUTS} power cuts (VMRIG_IMAGE_CUTS) left a state partition that '
                        f'mounts and a save that loads: {newest} the newest finished save, {during} the one '
                        'being written at the cut')

    def root_unchanged(self):
        after = digest(self.disk, *self.root_part)
        if after != self.root_before:
            return self.report('FAIL', 'root-unchanged', f'the root partition\'s bytes changed after {self.boots} '
                               f'boots (sha256 {self.root_before[:16]} -> {after[:16]})')
        self.report('PASS', 'root-unchanged', f'after all {self.boots} boots, games saved, {CUTS + 1} power cuts, a '
                    f'full and a damaged state partition, the root partition\'s {self.root_part[1] >> 20} MiB are byte for byte as written '
                    f'(sha256 {after[:16]})')

    def game_up_unsaved(self, check, what, base, timeout=SCREEN, rows=None):
        """The unit is active and the game's title says that it cannot save:
        the screen is base (the title the game shows then, as the headless
        game draws it) but for a notice line (wait_notice; rows: its answer,
        when already waited for)."""
        if rows is None:
            rows = self.wait_notice(base, check, timeout)
        state = self.out1('systemctl is-active pirogue.service')
        said = self.out1('journalctl -b --no-pager -o cat -u pirogue.service -u pirogue-image-state.service | '
                         'grep -i -m 2 "sav" | tr "\\n" " "')
        vcs = self.out1('cat /dev/vcs1 | tr -s " "')
        if state != 'active' or rows is None or 'login:' in vcs:
            why = self.why_not(base, check)
            return self.report('FAIL', check, f'{what}: unit {state!r}; within {timeout * W:.0f} s the screen was not '
                               f'the title with a notice line ({"it equals the title" if why is None else why}; see '
                               f'{self.g.outdir}/{check}.png); journal: {said!r}')
        self.report('PASS', check, f'{what}: the game runs (unit active) and its title is the headless one but for '
                    f'a notice (pixel rows {rows[0]}-{rows[1]}: it says it cannot save; see {self.g.outdir}/{check}.png); '
                    f'journal: {said[:160]!r}')

    def full_state(self):
        """In the boot that checked the last cut: the state partition
        filled, the save gone, the game restarted; a new game's save is
        refused, and the title it goes back to says so."""
        self.sh('dd if=/dev/zero of=/state/fill bs=1M 2>/dev/null; sync; rm -f /state/pirogue/pirogue.sav; '
                'systemctl restart pirogue.service', timeout=50)
        plain = self.headless([], None, 'title')
        if self.wait_screen(plain, 'state-full-title', SCREEN) is None:
            return self.report('FAIL', 'state-full', f'restarted on a full state partition, the plain title did not '
                               f'show within {SCREEN * W:.0f} s: {self.why_not(plain, "state-full-title")}')
        self.g.send_keys(['enter'])  # a new game: its first save is refused
        if self.wait_change(plain, 'state-full-game', SCREEN) is None:
            return self.report('FAIL', 'state-full', 'Enter on the title started no game')
        self.g.send_keys(['escape'])  # save and quit: to the title, with what the save said
        # the game is still in memory: the title offers Continue (as with a save)
        self.game_up_unsaved('state-full', 'a full state partition', self.saved_title())
        self.sh('rm -f /state/fill; sync')

    def damaged_state_boot(self):
        start, _ = partitions(self.disk)[2]
        with open(self.disk, 'r+b') as f:  # the superblock and its first backups gone
            f.seek(start)
            f.write(b'\xde\xad' * (4 << 20))
        t0 = self.boot()
        # the title looked for from power on (a minute on it starts the demo)
        plain = self.headless([], None, 'title')
        rows = self.wait_notice(plain, 'state-damaged', TITLE_LIMIT)
        self.ready(t0, TITLE_LIMIT)
        self.game_up_unsaved('state-damaged', 'a state partition damaged beyond repair', plain, TITLE_LIMIT, rows)
        self.shutdown()


def run(rig, cfg):
    skip = os.environ.get('VMRIG_IMAGE_SKIP')
    if skip:
        return rig.report('SKIP', cfg, 'boot', skip)
    ImageBoot(rig, cfg).run()
