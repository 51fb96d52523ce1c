#!/usr/bin/env python3
"""pirogue's VM rig: boots Debian's kernel in QEMU with the game in the
initramfs, drives it over QMP and the serial console, and compares QEMU's
screendumps with the headless backend's frames for the same seed, size and
keys. Python 3 standard library only.

Every check prints one line: PASS|FAIL|SKIP <config> <check>: <reason>.
Exit status: 0 all passed, 77 some skipped and none failed, 1 a failure.
See docs/vmrig.md.
"""
import argparse
import json
import os
import queue
import re
import shlex
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

# ---------------------------------------------------------------- images


def read_ppm(path):
    """Returns (width, height, RGB bytes) of a binary PPM (P6, maxval 255)."""
    with open(path, 'rb') as f:
        data = f.read()
    fields = []
    pos = 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b'#':
            pos = data.index(b'\n', pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    if fields[0] != b'P6' or fields[3] != b'255':
        raise ValueError(f'{path}: not a P6 PPM with maxval 255')
    w, h = int(fields[1]), int(fields[2])
    rgb = data[pos:pos + w * h * 3]
    if len(rgb) != w * h * 3:
        raise ValueError(f'{path}: truncated PPM')
    return w, h, rgb


def read_png(path):
    """Returns (width, height, RGB bytes) of an 8-bit, non-interlaced PNG
    (grey, grey+alpha, RGB or RGBA; alpha is dropped)."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError(f'{path}: not a PNG')
    pos = 8
    idat = []
    ihdr = None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        elif kind == b'IEND':
            break
    if not ihdr:
        raise ValueError(f'{path}: no IHDR')
    w, h, depth, ctype, _, _, interlace = ihdr
    chans = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype)
    if depth != 8 or chans is None or interlace:
        raise ValueError(f'{path}: unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})')
    raw = zlib.decompress(b''.join(idat))
    stride = w * chans
    out = bytearray(h * stride)
    prev = bytearray(stride)
    p = 0
    for y in range(h):
        ft = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        if ft == 1:
            for i in range(chans, stride):
                line[i] = (line[i] + line[i - chans]) & 255
        elif ft == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ft == 3:
            for i in range(stride):
                left = line[i - chans] if i >= chans else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - chans] if i >= chans else 0
                b = prev[i]
                c = prev[i - chans] if i >= chans else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        elif ft != 0:
            raise ValueError(f'{path}: bad filter type {ft}')
        out[y * stride:(y + 1) * stride] = line
        prev = line
    if chans == 3:
        return w, h, bytes(out)
    rgb = bytearray(w * h * 3)
    for i in range(w * h):
        if chans == 4:
            rgb[i * 3:i * 3 + 3] = out[i * 4:i * 4 + 3]
        elif chans == 2:
            rgb[i * 3:i * 3 + 3] = bytes([out[i * 2]]) * 3
        else:
            rgb[i * 3:i * 3 + 3] = bytes([out[i]]) * 3
    return w, h, bytes(rgb)


def write_png(path, img):
    """Writes (width, height, RGB bytes) as a PNG (for people to look at)."""
    w, h, rgb = img
    raw = b''.join(b'\0' + rgb[y * w * 3:(y + 1) * w * 3] for y in range(h))

    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) +
                chunk(b'IDAT', zlib.compress(raw, 6)) + chunk(b'IEND', b''))


def to_rgb565(img):
    """The image with each pixel cut to the 5/6/5 bits a 16-bit display
    keeps (the low bits zeroed), so a 16-bit screen compares with an
    XRGB8888 reference exactly at the precision it has."""
    w, h, rgb = img
    mask = bytes([0xF8, 0xFC, 0xF8]) * (w * h)
    return (w, h, bytes(a & m for a, m in zip(rgb, mask)))


def compare(a, b):
    """Returns None when the images are identical, else a one-line reason."""
    if a[:2] != b[:2]:
        return f'size {a[0]}x{a[1]} vs {b[0]}x{b[1]}'
    if a[2] == b[2]:
        return None
    w, h = a[0], a[1]
    da, db = a[2], b[2]
    n = 0
    x0, y0, x1, y1 = w, h, -1, -1
    for y in range(h):
        row = slice(y * w * 3, (y + 1) * w * 3)
        if da[row] == db[row]:
            continue
        for x in range(w):
            i = (y * w + x) * 3
            if da[i:i + 3] != db[i:i + 3]:
                n += 1
                x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
    return f'{n} pixels differ within ({x0},{y0})-({x1},{y1})'


# ---------------------------------------------------------------- QEMU


def find_glyph(img, font, ch, rows):
    """Finds the one console cell among the top `rows` rows that shows glyph
    ch of font ((tile_w, tile_h, coverage rows), a CP437 16x16 grid) in one
    colour on a plain background, trying integer scales 1..8 (the console
    starts at the top left). Returns ((col, row), (cell_w, cell_h)) or None."""
    w, h, rgb = img
    tw, th, tiles = font
    code = ord(ch)
    tile = [[tiles[(code // 16) * th + y][(code % 16) * tw + x] for x in range(tw)] for y in range(th)]
    for scale in range(1, 9):
        cw, ch_ = tw * scale, th * scale
        hits = []
        for cy in range(min(rows, h // ch_)):
            for cx in range(w // cw):
                bg = fg = None
                ok = True
                for y in range(th):
                    base = ((cy * ch_ + y * scale) * w + cx * cw) * 3
                    for x in range(tw):
                        i = base + x * scale * 3
                        p = rgb[i:i + 3]
                        if tile[y][x]:
                            fg = fg or p
                            ok = p == fg
                        else:
                            bg = bg or p
                            ok = p == bg
                        if not ok:
                            break
                    if not ok:
                        break
                if ok and fg != bg:
                    hits.append((cx, cy))
        if len(hits) == 1:
            return hits[0], (cw, ch_)
    return None


def load_font_png(path):
    """A CP437 16x16 tileset PNG as (tile_w, tile_h, rows of 0/1 coverage)."""
    w, h, rgb = read_png(path)
    rows = [[1 if sum(rgb[(y * w + x) * 3:(y * w + x) * 3 + 3]) > 3 * 127 else 0 for x in range(w)] for y in range(h)]
    return w // 16, h // 16, rows


class Timeout(Exception):
    pass


# How many times its nominal budget a wait for a condition may take before
# the check fails (tests/checklib.sh's W, PIROGUE_TEST_WAIT): the wait
# returns as soon as its condition holds, so the budget only ends a hang.
W = float(os.environ.get('PIROGUE_TEST_WAIT', '6'))


class Guest:
    """One QEMU run: serial console (commands, markers), QMP (keys, screendumps)."""

    FRAME = re.compile(r'pirogue: frame presented (\d+)')

    def __init__(self, cfg, args, outdir, cmd=None):
        """cmd: QEMU's command line when not the initramfs boot of cfg
        (the systemd configuration's, tests/vm/sysboot.py)."""
        self.cfg = cfg
        self.outdir = outdir
        self.t0 = time.monotonic()
        self.lines = queue.Queue()
        self.frames = 0
        self.last_frame_t = 0.0
        self.history = []
        self.stamps = []  # each history line's arrival (time.monotonic())
        self.lock = threading.Lock()
        self.qmp_path = os.path.join(tempfile.mkdtemp(prefix='vmrig-'), 'qmp.sock')
        arch = cfg['arch']
        kdir = os.path.join(args.cache, f'kernel-{arch}')
        custom = cmd
        if custom:
            pass
        elif arch == 'x86_64':
            cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-M', 'pc', '-kernel', os.path.join(kdir, 'vmlinux')]
            console = 'ttyS0'
        else:
            cmd = ['qemu-system-aarch64', '-accel', 'tcg', '-M', 'virt', '-cpu', 'cortex-a72',
                   '-kernel', os.path.join(kdir, 'vmlinuz'), '-device', 'virtio-keyboard-pci']
            console = 'ttyAMA0'
        gpu = {'bochs': ['-vga', 'std'],
               'cirrus': ['-vga', 'cirrus'],
               # a panel's size: virtio-gpu's preferred mode (xres/yres)
               'virtio': ['-vga', 'none', '-device', 'virtio-gpu-pci' +
                          (f',xres={cfg["panel"][0]},yres={cfg["panel"][1]}' if cfg.get('panel') else '')],
               'virtio-vga': []}[cfg['gpu']]
        if custom:
            cmd = custom + ['-qmp', f'unix:{self.qmp_path},server=on,wait=off']
        else:
            cmd += ['-m', '256', '-smp', '1', '-nodefaults', '-no-reboot', '-display', 'none',
                    '-initrd', os.path.join(args.cache, f'initrd-{arch}.cpio.gz'),
                    # video=: the console's (and so /dev/fb0's) mode; the game's DRM mode differs.
                    '-append', f'console={console} panic=-1 loglevel=1 video=1024x768',
                    '-serial', 'stdio', '-qmp', f'unix:{self.qmp_path},server=on,wait=off'] + gpu
        self.cmd = cmd
        self.log = open(os.path.join(outdir, 'serial.log'), 'w')
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT)
        threading.Thread(target=self._reader, daemon=True).start()
        self.qmp = None
        for _ in range(200):
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(self.qmp_path)
                self.qmp = s.makefile('rw')
                break
            except OSError:
                time.sleep(0.05)
        if not self.qmp:
            raise RuntimeError('QEMU did not open its QMP socket: ' + ' '.join(map(shlex.quote, cmd)))
        json.loads(self.qmp.readline())
        self.qmp_cmd('qmp_capabilities')

    def _reader(self):
        for raw in self.proc.stdout:
            s = raw.decode('utf-8', 'replace').rstrip('\r\n')
            t = time.monotonic() - self.t0
            self.log.write(f'[{t:8.3f}] {s}\n')
            self.log.flush()
            m = self.FRAME.search(s)
            with self.lock:
                self.history.append(s)
                self.stamps.append(time.monotonic())
                if m:
                    self.frames = max(self.frames, int(m.group(1)))
                    self.last_frame_t = time.monotonic()
            self.lines.put(s)
        self.lines.put(None)

    def qmp_cmd(self, name, **arguments):
        self.qmp.write(json.dumps({'execute': name, 'arguments': arguments}) + '\n')
        self.qmp.flush()
        while True:
            r = json.loads(self.qmp.readline())
            if 'return' in r:
                return r['return']
            if 'error' in r:
                raise RuntimeError(f'QMP {name}: {r["error"].get("desc", r["error"])}')

    def expect(self, pred, timeout):
        """Returns the first serial line for which pred is true."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise Timeout(f'no expected line within {timeout:.0f} s')
            try:
                s = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if s is None:
                raise Timeout('QEMU exited')
            if pred(s):
                return s

    def sh(self, line, timeout=20):
        """Runs one shell line in the guest; returns (status, output lines)."""
        with self.lock:
            start = len(self.history)
        self.proc.stdin.write(line.encode() + b'\n')
        self.proc.stdin.flush()
        done = self.expect(lambda s: s.startswith('VMRIG_DONE '), timeout)
        with self.lock:
            out = self.history[start:]
        out = [s for s in out if not s.startswith('VMRIG_DONE ')]
        return int(done.split()[1]), out

    def send_keys(self, tokens):
        """Taps each key (a --keys token; QCODES spells chords) in one QMP
        input-send-event: its keys down, then up in the reverse order, the
        release queued in the device with the press. (QMP send-key releases
        after its hold time, 100 ms, on a timer of QEMU's main loop: with
        three QEMUs on two cores the release reached the guest late and the
        game's own repeat of a held movement key, after 250 ms, took one
        Right twice on the options screen.)"""
        for tok in tokens:
            qs = QCODES.get(tok, [tok])
            ev = [{'type': 'key', 'data': {'down': True, 'key': {'type': 'qcode', 'data': q}}} for q in qs]
            ev += [{'type': 'key', 'data': {'down': False, 'key': {'type': 'qcode', 'data': q}}} for q in reversed(qs)]
            self.qmp_cmd('input-send-event', events=ev)
            time.sleep(0.15)

    def frame_count(self):
        with self.lock:
            return self.frames

    def settle(self, after, timeout=30, quiet=0.6):
        """Waits until a frame newer than `after` was presented and no new
        frame came for `quiet` seconds. Returns the newest frame number."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                n, t = self.frames, self.last_frame_t
            if n > after and time.monotonic() - t >= quiet:
                return n
            time.sleep(0.05)
        raise Timeout(f'no frame after #{after} within {timeout:.0f} s')

    def quiet(self, secs=1.0):
        """Waits until no frame came for secs seconds; returns the newest frame number."""
        while True:
            with self.lock:
                n, t = self.frames, self.last_frame_t
            left = secs - (time.monotonic() - t)
            if left <= 0:
                return n
            time.sleep(min(left, 0.1) + 0.01)

    def wait_line(self, needle, start, timeout):
        """True when a serial line from history[start:] contains needle within timeout s."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                if any(needle in s for s in self.history[start:]):
                    return True
            time.sleep(0.05)
        return False

    def arrived(self, line):
        """When (time.monotonic()) the serial line `line` came, its last
        time; None if it never did."""
        with self.lock:
            for i in range(len(self.history) - 1, -1, -1):
                if self.history[i] == line:
                    return self.stamps[i]
        return None

    def mark(self):
        with self.lock:
            return len(self.history)

    def screendump(self, name):
        path = os.path.join(self.outdir, f'{name}.ppm')
        self.qmp_cmd('screendump', filename=path)
        img = read_ppm(path)
        write_png(path[:-4] + '.png', img)
        os.unlink(path)
        return img

    def close(self):
        if self.proc.poll() is None:
            try:
                self.qmp_cmd('quit')
            except Exception:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


# The font both sides draw with (the repo's fonts/ is in the initramfs as /bin/fonts).
FONT = 'cp437-8x8.png'

# QMP qcodes for the --keys tokens the checks use.
QCODES = {'ctrl-alt-f2': ['ctrl', 'alt', 'f2'], '>': ['shift', 'dot'], '<': ['shift', 'comma'], '.': ['dot'], ',': ['comma'],
          'enter': ['ret'], 'escape': ['esc'], 'space': ['spc'], '/': ['slash'], 'O': ['shift', 'o']}

# ---------------------------------------------------------------- checks


class Rig:
    def __init__(self, args):
        self.args = args
        self.results = []
        self.help = ''
        try:
            r = subprocess.run([args.pirogue, '--help'], capture_output=True, text=True, timeout=10,
                               env=dict(os.environ, PIROGUE_CONFIG='/dev/null'))
            self.help = r.stdout + r.stderr
        except (OSError, subprocess.TimeoutExpired) as e:
            self.help = ''
            print(f'vmrig: cannot run {args.pirogue} --help: {e}')
        self.expected_cache = {}
        try:
            r = subprocess.run(['nm', '--defined-only', args.pirogue], capture_output=True, text=True, timeout=30)
            self.symbols = {ln.split()[-1] for ln in r.stdout.splitlines() if ln.strip()} if r.returncode == 0 else None
        except OSError:
            self.symbols = None
        # The font both sides draw with, also for finding the player's @.
        self.font_path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                                                       'fonts', FONT))
        self.font = load_font_png(self.font_path) if os.path.exists(self.font_path) else None
        self.map_rows = 1000   # all rows: the player's @ is the only one on screen

    def report(self, verdict, cfg, check, reason):
        name = f'{cfg["name"]} {check}' if cfg else check
        self.results.append(verdict)
        print(f'{verdict} {name}: {reason}', flush=True)

    def app_mentions(self, word):
        """Whether the app's sources (src/app, src/main.c) use word."""
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'src')
        files = [os.path.join(src, 'main.c')]
        app = os.path.join(src, 'app')
        if os.path.isdir(app):
            files += [os.path.join(app, f) for f in os.listdir(app) if f.endswith('.c')]
        for f in files:
            try:
                with open(f, encoding='utf-8', errors='replace') as fh:
                    if word in fh.read():
                        return True
            except OSError:
                pass
        return False

    def links(self, name):
        """Whether the game binary contains function name (True when it
        cannot be told: a stripped binary)."""
        return self.symbols is None or not self.symbols or name in self.symbols

    def lacks(self, *words):
        """The first word --help does not mention (a feature not in main yet)."""
        for w in words:
            if w not in self.help:
                return w
        return None

    def headless(self, size, keys, name, rotate=0, font=True, extra=()):
        """The headless backend's frame for the seed, size, keys and rotation;
        font: with the rig's --font (else the automatic look, from a fresh
        state directory, whose settings file could choose another); extra:
        more arguments (e.g. --tiles on)."""
        key = (size, tuple(keys), rotate, font, tuple(extra))
        if key in self.expected_cache:
            return self.expected_cache[key]
        d = self.args.out
        kf = os.path.join(d, f'keys-{name}.txt')
        with open(kf, 'w') as f:
            f.write(''.join(k + '\n' for k in keys))
        png = os.path.join(d, f'expected-{size[0]}x{size[1]}r{rotate}-{name}-{zlib.crc32(repr(key).encode()):08x}.png')
        if os.path.exists(png):
            os.unlink(png)
        cmd = [self.args.pirogue, '--backend', 'headless', '--seed', str(self.args.seed),
               '--size', f'{size[0]}x{size[1]}', '--keys', kf, '--screenshot', png]
        if font:
            cmd += ['--font', self.font_path]
        else:
            st = os.path.join(d, f'state-{name}')
            shutil.rmtree(st, ignore_errors=True)
            cmd += ['--state-dir', st]
        if rotate:
            cmd += ['--rotate', str(rotate)]
        cmd += list(extra)
        # No settings file of this machine may change the reference frame.
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PIROGUE_CONFIG='/dev/null'))
        if r.returncode != 0 or not os.path.exists(png):
            said = (r.stderr or r.stdout).strip().splitlines()
            raise RuntimeError(f'headless run failed ({" ".join(cmd)}): exit {r.returncode}: '
                               f'{said[-1] if said else "no output"}')
        img = read_png(png)
        self.expected_cache[key] = img
        return img

    def run_config(self, cfg):
        if cfg.get('systemd') or cfg.get('image'):
            t0 = time.monotonic()
            try:
                if cfg.get('image'):
                    import imageboot
                    imageboot.run(self, cfg)
                else:
                    import sysboot
                    sysboot.run(self, cfg)
            except Exception as e:
                self.report('FAIL', cfg, 'rig', f'{type(e).__name__}: {e} (serial logs: {self.args.out}/{cfg["name"]})')
            print(f'vmrig: {cfg["name"]} took {time.monotonic() - t0:.1f} s', flush=True)
            return
        outdir = os.path.join(self.args.out, cfg['name'])
        os.makedirs(outdir, exist_ok=True)
        t0 = time.monotonic()
        g = None
        try:
            g = Guest(cfg, self.args, outdir)
            Session(self, cfg, g).run()
        except Exception as e:
            self.report('FAIL', cfg, 'rig', f'{type(e).__name__}: {e} (serial log: {outdir}/serial.log)')
        finally:
            if g:
                g.close()
        print(f'vmrig: {cfg["name"]} took {time.monotonic() - t0:.1f} s', flush=True)


class Session:
    """The checks of one configuration, in one boot of the VM."""

    # QMP keys (as --keys tokens): moves, '>' included (no stairs under the
    # player: the game says so, which changes the frame too).
    KEYS = ['l', 'l', 'j', 'j', 'h', 'k', 'l', '>']
    # Gamepad d-pad taps and the --keys tokens the headless twin gets for them.
    PAD = [('BTN_DPAD_DOWN', 'pad_down'), ('BTN_DPAD_RIGHT', 'pad_right'), ('BTN_DPAD_UP', 'pad_up')]
    CHECKS = ['start-frame', 'keys', 'gamepad', 'gamepad-unplug', 'shared-shift', 'mapped-pad', 'mouse', 'chvt', 'ctrl-alt-fn',
              'second-instance', 'reset-vt-live', 'sigterm', 'sigint-sighup', 'sigquit-sigsys', 'crash', 'no-display',
              'unreadable-card', 'console-tty', 'auto-scale', 'hotplug', 'blank']
    FB_CHECKS = ['fbdev-start-frame', 'fbdev-keys', 'fbdev-sigterm', 'fbdev-blank', 'fbdev-tiles']
    # the moves of the tiles check (the map in pictures redrawn around them)
    TILE_KEYS = ['l', 'l', 'j']

    def __init__(self, rig, cfg, g):
        self.rig, self.cfg, self.g = rig, cfg, g
        self.pid = None
        self.keys_done = []      # what the game has had so far, as --keys tokens
        self.size = tuple(cfg.get('panel') or rig.args.mode)
        self.tag = ''            # '' on DRM, 'fbdev-' on the fbdev backend
        self.broken = None       # why the remaining checks of this game run cannot run
        self.vt_before = ''

    def report(self, verdict, check, reason):
        self.rig.report(verdict, self.cfg, self.tag + check, reason)

    def headless(self, keys, font=True, extra=()):
        name = (self.tag or 'drm-') + f'{len(keys)}keys'
        return self.rig.headless(self.size, keys, name, self.cfg.get('rotate', 0), font, extra)

    def vt_now(self):
        """vmhelper's report of VT 1 now, or 'no VT report'."""
        rc, out = self.g.sh('vmhelper vt 1')
        return out[-1] if out else 'no VT report'

    def shell_result(self, line, timeout=30):
        """Runs line, then `echo "VMRIG_EXIT $?"` and vmhelper's report of VT
        1; returns (the exit status it printed, or '?'; the first VT report,
        or 'no VT report'; every output line)."""
        rc, out = self.g.sh(f'{line}; echo "VMRIG_EXIT $?"; vmhelper vt 1', timeout=timeout)
        ex = [s for s in out if s.startswith('VMRIG_EXIT')]
        status = ex[0].split()[1] if ex else '?'
        after = ([s for s in out if s.startswith('VH vt')] or ['no VT report'])[0]
        return status, after, out

    def kill_game(self, sig):
        """Sends the game SIGsig and waits for it; returns (its exit status,
        VT 1's report after)."""
        status, after, _ = self.shell_result(f'kill -{sig} {self.pid}; wait {self.pid}')
        self.pid = None
        return status, after

    def same_as_headless(self, what, name, font=True, extra=()):
        """None when the screen equals the headless frame for the keys the
        game has had (font, extra: as for Rig.headless), else a one-line
        reason."""
        exp = self.headless(self.keys_done, font, extra)
        name = self.tag + name
        # The last frame may still be on its way (a slow TCG guest): up to
        # two more looks, each after a second without a new frame.
        if self.cfg.get('rgb565'):
            exp = to_rgb565(exp)
        for attempt in range(3):
            if attempt:
                self.g.quiet(1.0)
            got = self.g.screendump(name)
            if self.cfg.get('rgb565'):
                got = to_rgb565(got)
            diff = compare(got, exp)
            if not diff:
                break
        if diff:
            write_png(os.path.join(self.g.outdir, f'{name}-expected.png'), exp)
            return f'{what}: {diff} (see {self.g.outdir}/{name}.png and {name}-expected.png)'
        return None

    def run(self):
        g = self.g
        try:
            ready = g.expect(lambda s: s.startswith('VMRIG_READY') or 'Kernel panic' in s, 90)
        except Timeout as e:
            self.report('FAIL', 'boot', f'{e} (serial log: {g.outdir}/serial.log)')
            return
        if 'panic' in ready:
            self.report('FAIL', 'boot', ready)
            return
        rc, out = g.sh('for d in /sys/class/drm/card0/device/driver /sys/class/drm/card0/device/virtio*/driver; '
                       'do [ -e $d ] && echo "VMRIG_DRIVER $(basename $(readlink $d))"; done')
        drivers = [s.split()[1] for s in out if s.startswith('VMRIG_DRIVER')]
        want = {'bochs': 'bochs-drm', 'cirrus': 'cirrus', 'virtio': 'virtio_gpu'}[self.cfg['gpu']]
        driver = want if want in drivers else ','.join(drivers) or 'none'
        errs = [s for s in g.history if 'VMRIG_INSMOD_ERROR' in s]
        rc, vt = g.sh('vmhelper vt 1')
        self.vt_before = vt[-1] if vt else ''
        if driver != want or errs or rc != 0 or 'mode=text' not in self.vt_before:
            self.report('FAIL', 'boot', f'card0 driver {driver} (want {want}); {"; ".join(errs)} {self.vt_before}')
            return
        self.console_size = g.screendump('console-before')[:2]
        self.report('PASS', 'boot', f'{ready.split()[2]} up at {ready.split()[1]} s, card0 is {driver}, '
                    f'{self.vt_before[3:]}')
        # The uinput helper reads commands from a FIFO the shell keeps open on fd 3.
        rc, out = g.sh('mkfifo /tmp/vh && { vmhelper uinput </tmp/vh & } && exec 3>/tmp/vh')
        if rc != 0:
            self.broken = 'the uinput helper did not start: ' + ' '.join(out)
        miss = self.rig.lacks('--backend', '--screenshot', '--keys', '--verbose', '--mode', '--seed')
        if miss:
            self.broken = f'pirogue --help does not list {miss} yet (that part of the game is not in main)'
        self.listings(want)
        if self.cfg.get('unit'):
            self.evdev_unit()
        self.series('drm', self.cfg.get('checks', self.CHECKS))
        if self.cfg.get('fbdev'):
            self.tag = 'fbdev-'
            self.broken = None
            if miss:
                self.broken = f'pirogue --help does not list {miss} yet (that part of the game is not in main)'
            self.keys_done = []
            self.series('fbdev', [c[len(self.tag):] for c in self.FB_CHECKS])

    def listings(self, driver):
        """--list-displays and --list-inputs, with a uinput pad and mouse plugged."""
        g = self.g
        for check, opt in (('list-displays', '--list-displays'), ('list-inputs', '--list-inputs')):
            if self.broken or opt not in self.rig.help:
                self.report('SKIP', check, self.broken or f'pirogue --help does not list {opt} yet')
                continue
            try:
                if check == 'list-inputs':
                    self.helper('pad', 'pad')
                    self.helper('mouse', 'mouse')
                rc, out = g.sh(f'PIROGUE_CONFIG=/dev/null pirogue {opt}', timeout=30)
                if check == 'list-inputs':
                    self.helper('unplug pad', 'unplug')
                    self.helper('unplug mouse', 'unplug')
            except RuntimeError as e:
                self.report('FAIL', check, str(e))
                continue
            def has(pred):
                return any(pred(ln) for ln in out)
            if check == 'list-displays':
                wants = [(has(lambda ln: '/dev/dri/card0' in ln and driver in ln), f'card0 with its driver {driver}'),
                         (has(lambda ln: ' connected' in ln and '640x480' in ln), 'a connected connector with 640x480'),
                         (has(lambda ln: '/dev/fb0' in ln), '/dev/fb0'),
                         (has(lambda ln: 'choice' in ln.lower() and 'drm' in ln), 'the automatic choice: drm')]
            else:
                wants = [(has(lambda ln: 'keyboard' in ln.lower() and 'vmrig' not in ln and ': keyboard' in ln),
                          "QEMU's keyboard as a keyboard"),
                         (has(lambda ln: 'vmrig virtual gamepad' in ln and ': gamepad' in ln), 'the uinput pad as a gamepad'),
                         (has(lambda ln: 'vmrig virtual mouse' in ln and ': mouse' in ln), 'the uinput mouse as a mouse')]
            missing = [what for ok, what in wants if not ok]
            if rc != 0 or missing:
                self.report('FAIL', check, f'exit {rc}; does not show {", ".join(missing) or "-"}: ' + ' | '.join(out))
            else:
                self.report('PASS', check, f'shows {", ".join(w for _, w in wants)}')

    def evdev_unit(self):
        """test_evdev (the host's build, its libraries beside it in the
        initramfs) on the guest's kernel, before any game runs: its uinput
        test (key repeat, a release read before a repeat, hotplug, the grab,
        SYN_DROPPED) needs /dev/uinput, which CI's machine has not."""
        check = 'evdev-unit'
        rc, out = self.g.sh('[ -x /bin/test_evdev ] && echo yes || echo no')
        if not out or out[-1] != 'yes':
            return self.report('SKIP', check, 'no test_evdev in the initramfs (tests/vm/run.sh builds it on an x86_64 '
                               'host only; said above if it did not build)')
        rc, out = self.g.sh('cd /tmp && test_evdev; echo "VMRIG_UNIT $?"; cd /', timeout=180)
        status = ([s.split()[1] for s in out if s.startswith('VMRIG_UNIT')] or ['?'])[0]
        ran = [s for s in out if s.startswith('[       OK ]') or s.startswith('[  FAILED  ]') or s.startswith('[  SKIPPED ]')]
        with open(os.path.join(self.g.outdir, 'evdev-unit.txt'), 'w') as f:
            f.write('\n'.join(out) + '\n')
        uinput = any('test_dev_uinput' in s and 'OK' in s for s in ran)
        if status != '0' or not uinput:
            bad = [s for s in out if 'FAILED' in s or 'ERROR' in s or 'LINE' in s or 'skipped' in s]
            return self.report('FAIL', check, f'exit {status}; test_dev_uinput {"passed" if uinput else "did not pass"}: '
                               + (' | '.join(bad[:6]) or 'no cmocka lines') + f' (all in {self.g.outdir}/evdev-unit.txt)')
        ok = sum(1 for s in ran if s.startswith('[       OK ]'))
        skipped = [s.split()[-1] for s in ran if s.startswith('[  SKIPPED ]')]
        self.report('PASS', check, f'test_evdev on the guest kernel: {ok} passed'
                    + (f', skipped {" ".join(skipped)}' if skipped else '') + ', test_dev_uinput among the passed '
                    '(uinput devices: repeat, a release read before a repeat, hotplug, grab, SYN_DROPPED)')

    # What each check needs besides a running game, as a function the game
    # binary links in when that part is wired into it.
    REQUIRES = {'keys': 'evdev_open', 'gamepad': 'evdev_open', 'gamepad-unplug': 'evdev_open',
                'shared-shift': 'evdev_open', 'mapped-pad': 'evdev_open',
                'mouse': 'evdev_open', 'chvt': 'vt_open', 'sigterm': 'vt_open', 'sigint-sighup': 'vt_open',
                'ctrl-alt-fn': 'vt_switch_to', 'crash': 'crash_install_handlers', 'console-tty': 'vt_open',
                'second-instance': 'vt_open', 'reset-vt-live': 'vt_open',
                'sigquit-sigsys': 'crash_install_handlers'}
    WHAT = {'evdev_open': 'the evdev input backend', 'vt_open': 'the VT handling',
            'vt_switch_to': 'switching VTs from the keyboard', 'crash_install_handlers': 'the crash handlers'}

    def series(self, backend, checks):
        for check in checks:
            if self.broken:
                self.report('SKIP', check, self.broken)
                continue
            need = self.REQUIRES.get(check)
            if need and not self.rig.links(need):
                self.report('SKIP', check, f'the game does not link {need}() ({self.WHAT[need]}): '
                            'not wired in yet, not in main')
                continue
            if backend == 'fbdev' and check == 'start-frame' and not self.rig.links('vt_open'):
                # Without KD_GRAPHICS fbcon keeps drawing its cursor into /dev/fb0.
                self.broken = ('the game does not link vt_open() (the VT handling): without it fbcon draws '
                               'over /dev/fb0; not wired in yet, not in main')
                self.report('SKIP', check, self.broken)
                continue
            if check == 'ctrl-alt-fn' and not self.rig.app_mentions('EV_VT_SWITCH'):
                self.report('SKIP', check, 'src/app and src/main.c do not handle EV_VT_SWITCH yet (not in main)')
                continue
            try:
                if check == 'start-frame':
                    self.start_frame(backend)
                elif check == 'crash':
                    self.crash(backend)
                elif check == 'sigint-sighup':
                    self.sigint_sighup(backend)
                elif check == 'sigquit-sigsys':
                    self.sigquit_sigsys(backend)
                elif check == 'console-tty':
                    self.console_tty(backend)
                elif check == 'auto-scale':
                    self.auto_scale(backend)
                elif check == 'hotplug':
                    self.hotplug(backend)
                elif check == 'blank':
                    self.blank(backend)
                elif check == 'tiles':
                    self.tiles(backend)
                else:
                    getattr(self, check.replace('-', '_'))()
            except (Timeout, RuntimeError, ValueError, OSError) as e:
                self.report('FAIL', check, f'{type(e).__name__}: {e}')
        if self.pid:   # a check failed with the game running: end it for the next series
            self.g.sh(f'kill -KILL {self.pid}; wait {self.pid}', timeout=20)
            self.pid = None

    # ------------------------------------------------------------ the game

    def start_game(self, backend, on_tty=False, dfl=False, extra=(), font=True):
        """Starts the game in the background; waits for its first frame.
        on_tty: as a login shell or a systemd unit (TTYPath=/dev/tty1,
        StandardInput=tty) starts it: stdin and stdout on tty1, which is its
        controlling terminal, and no --vt; else its stdio is the serial
        console and it is given --vt 1. dfl: with every signal at its
        default action (vmhelper dfl), as a unit starts it, not ignoring
        SIGINT and SIGQUIT as a shell's background job does. font: with the
        rig's --font, else the automatic look (the shipped fonts and tile
        sheets beside the binary: /bin/fonts, /bin/tiles)."""
        g = self.g
        args = ['PIROGUE_CONFIG=/dev/null', 'pirogue', '--backend', backend, '--seed', str(self.rig.args.seed), '--verbose']
        if font:
            args += ['--font', '/bin/fonts/' + FONT]
        if backend == 'drm':
            args += ['--mode', f'{self.size[0]}x{self.size[1]}']
        if self.cfg.get('rotate'):
            args += ['--rotate', str(self.cfg['rotate'])]
        args += list(extra)
        if dfl:
            args.insert(1, 'vmhelper dfl')
        if on_tty:
            args.insert(1, 'setsid -c')
            args += ['</dev/tty1', '>/dev/tty1', '2>/dev/console']
        else:
            args += ['--vt', '1']    # its stdio is the serial console, not a VT
        with g.lock:          # a new game counts its frames from 1 again
            g.frames = 0
        before = 0
        mark = g.mark()
        rc, out = g.sh(' '.join(args) + ' & echo "VMRIG_PID $!"')
        pid = [s.split()[1] for s in out if s.startswith('VMRIG_PID')]
        if rc != 0 or not pid:
            raise RuntimeError('could not start the game: ' + ' | '.join(out))
        self.pid = pid[0]
        try:
            return g.settle(before, timeout=30)
        except Timeout:
            rc, out = g.sh(f'kill -0 {self.pid} 2>/dev/null && echo alive || echo gone')
            state = out[-1] if out else '?'
            with g.lock:
                said = [s for s in g.history[mark:] if s.startswith('pirogue')]
            if state == 'gone':
                self.pid = None
            for s in said:
                if 'is not built into this pirogue' in s:
                    raise NotBuilt(f'{s} (the {backend} backend is not in main yet)')
            raise RuntimeError(f'no "pirogue: frame presented" line within 30 s (game {state}; '
                               f'it said: {" | ".join(said[-3:]) or "nothing"})')

    def start_frame(self, backend):
        if backend == 'fbdev':
            rc, out = self.g.sh('cat /sys/class/graphics/fb0/virtual_size')
            if rc != 0 or not out:
                raise RuntimeError('no /dev/fb0 (the kernel has no fbdev emulation for this card)')
            self.size = tuple(int(v) for v in out[-1].split(','))
        try:
            n = self.start_game(backend)
        except NotBuilt as e:
            self.broken = str(e)
            return self.report('SKIP', 'start-frame', self.broken)
        except RuntimeError as e:
            self.broken = f'the game did not start on {backend}'
            return self.report('FAIL', 'start-frame', str(e))
        why = self.same_as_headless('start', 'start')
        if why:
            return self.report('FAIL', 'start-frame', why)
        fmt = ''
        if self.cfg.get('rgb565'):
            with self.g.lock:
                said = [ln for ln in self.g.history if ln.startswith('pirogue: /dev/dri/') and 'console' in ln]
            if not said or 'RGB565' not in said[-1]:
                return self.report('FAIL', 'start-frame', 'the drm backend did not choose RGB565 on a 16-bit device: '
                                   + (said[-1] if said else 'it said nothing about its mode'))
            fmt = ' in RGB565 (compared at 5/6/5 bits)'
        self.report('PASS', 'start-frame', f'{backend} frame #{n} at {self.size[0]}x{self.size[1]}{fmt} equals the '
                    f'headless frame for seed {self.rig.args.seed}, pixel for pixel')

    def keys(self):
        g = self.g
        start = self.headless(self.keys_done)
        before = g.frame_count()
        g.send_keys(self.KEYS)
        self.keys_done += self.KEYS
        n = g.settle(before, timeout=10)
        if compare(start, self.headless(self.keys_done)) is None:
            raise RuntimeError(f'keys {" ".join(self.KEYS)} do not change the headless frame: the check would prove nothing')
        why = self.same_as_headless('after keys', 'keys')
        if why:
            return self.report('FAIL', 'keys', why)
        self.report('PASS', 'keys', f'after QMP keys {" ".join(self.KEYS)} frame #{n} equals the headless frame')

    def helper(self, cmd, want, timeout=10):
        """Sends one command to the uinput helper; returns its answer line."""
        g = self.g
        mark = g.mark()
        g.sh(f'echo "{cmd}" >&3')
        if not g.wait_line('VH ', mark, timeout):
            raise RuntimeError(f'the uinput helper did not answer "{cmd}"')
        with g.lock:
            ans = [s for s in g.history[mark:] if s.startswith('VH ')][0]
        if not ans.startswith('VH ok ' + want):
            raise RuntimeError(f'uinput helper: {ans}')
        return ans

    def plug(self, kind, name):
        """Creates a uinput device and waits until the game has noticed it
        (a --verbose line naming it), or 2 s."""
        g = self.g
        mark = g.mark()
        ans = self.helper(kind, kind)
        seen = g.wait_line(name, mark, 2.0)
        return ans.split()[-1], seen

    def gamepad(self):
        g = self.g
        before_img = g.screendump('gamepad-before')
        node, seen = self.plug('pad', 'vmrig virtual gamepad')
        before = g.frame_count()
        for code, _ in self.PAD:
            self.helper(f'tap pad {code}', 'tap')
            time.sleep(0.15)
        try:
            n = g.settle(before, timeout=10)
        except Timeout:
            return self.report('FAIL', 'gamepad', f'no frame after the d-pad taps on {node} '
                               f'(the game {"logged" if seen else "did not log"} the new device)')
        pad_img = g.screendump('gamepad-moved')
        if compare(before_img, pad_img) is None:
            return self.report('FAIL', 'gamepad', 'the screen did not change after the d-pad taps')
        # The key hint names the buttons of the device last used; a lone
        # Shift (a modifier: costs nothing) brings the keyboard's back, so
        # the frame can be compared with the headless one.
        self.keys_done += [tok for _, tok in self.PAD] + ['modifier']
        before = g.frame_count()
        g.send_keys(['shift'])
        g.quiet(1.0)
        why = self.same_as_headless('after the d-pad and a lone Shift', 'gamepad')
        if why:
            return self.report('FAIL', 'gamepad', why)
        self.report('PASS', 'gamepad', f'a uinput pad ({node}) created after the start moved the player: '
                    f'{" ".join(t for _, t in self.PAD)}, frame #{n} equals the headless frame')

    def gamepad_unplug(self):
        g = self.g
        mark = g.mark()
        before = g.frame_count()
        img = g.screendump('unplug-before')
        self.helper('unplug pad', 'unplug')
        time.sleep(1.0)
        after = g.screendump('unplug-after')
        with g.lock:
            died = [s for s in g.history[mark:] if 'frame presented' not in s and s.startswith('pirogue')]
        if compare(img, after) is not None:
            return self.report('FAIL', 'gamepad-unplug', f'the screen changed when the pad was unplugged: '
                               f'{compare(img, after)}; the game said: {" | ".join(died) or "nothing"}')
        g.send_keys(['h'])
        self.keys_done.append('h')
        g.settle(before, timeout=10)
        why = self.same_as_headless('keyboard after the unplug', 'unplug')
        if why:
            return self.report('FAIL', 'gamepad-unplug', why)
        self.report('PASS', 'gamepad-unplug', 'unplugging the pad left the screen as it was; the keyboard '
                    'still moves the player (frame equals the headless one)')

    def shared_shift(self):
        """Issue 11 #3: Shift held on one keyboard shifts a key on another
        ('>': descend, not '.': wait), and a keyboard unplugged with Shift
        down releases it."""
        g = self.g
        for kb in ('kbd1', 'kbd2'):
            self.plug(kb, 'vmrig keyboard ' + kb[-1])
        if compare(self.headless(self.keys_done + ['>']), self.headless(self.keys_done + ['.'])) is None:
            raise RuntimeError("'>' and '.' give the same headless frame here: the check would prove nothing")
        before = g.frame_count()
        self.helper('emit kbd1 EV_KEY KEY_LEFTSHIFT 1', 'emit')
        self.helper('sync kbd1', 'sync')
        self.helper('tap kbd2 KEY_DOT', 'tap')
        self.helper('emit kbd1 EV_KEY KEY_LEFTSHIFT 0', 'emit')
        self.helper('sync kbd1', 'sync')
        self.keys_done.append('>')
        n = g.settle(before, timeout=10)
        why = self.same_as_headless("Shift on keyboard 1, '.' on keyboard 2", 'shared-shift')
        if why:
            return self.report('FAIL', 'shared-shift', why + " (a '.' instead of '>' means the Shift was not shared)")
        before = g.frame_count()
        self.helper('emit kbd1 EV_KEY KEY_LEFTSHIFT 1', 'emit')
        self.helper('sync kbd1', 'sync')
        self.helper('unplug kbd1', 'unplug')
        time.sleep(0.5)
        self.helper('tap kbd2 KEY_DOT', 'tap')
        self.keys_done.append('.')
        g.settle(before, timeout=10)
        self.helper('unplug kbd2', 'unplug')
        why = self.same_as_headless("'.' after keyboard 1 went with Shift down", 'shared-shift-unplug')
        if why:
            return self.report('FAIL', 'shared-shift', why + " (a '>' means the unplugged keyboard's Shift stuck)")
        self.report('PASS', 'shared-shift', f"Shift on one uinput keyboard and '.' on another gave '>' (frame #{n} "
                    "equals the headless frame); unplugged with Shift down, '.' is a wait again")

    # pad2's d-pad buttons (SDL's b12..b15 of a Mayflash GameCube pad) and
    # the --keys tokens they are once its line in the shipped database maps them.
    MAPPED = {'pad_up': '0x12c', 'pad_right': '0x12d', 'pad_down': '0x12e', 'pad_left': '0x12f'}

    def mapped_pad(self):
        """Issue 12: a pad off the kernel layout that SDL's mappings know plays
        with no setup: its d-pad buttons (nothing in the kernel layout) move
        the player through the line of gamepads/gamecontrollerdb.txt."""
        g = self.g
        seq = None
        for cand in (['pad_right', 'pad_down'], ['pad_left', 'pad_up'], ['pad_down', 'pad_left'], ['pad_up', 'pad_right']):
            if compare(self.headless(self.keys_done), self.headless(self.keys_done + cand + ['modifier'])) is not None:
                seq = cand
                break
        if not seq:
            raise RuntimeError('no two d-pad moves change the headless frame here: the check would prove nothing')
        mark = g.mark()
        node, seen = self.plug('pad2', 'vmrig mapped pad')
        with g.lock:
            said = [s for s in g.history[mark:] if 'mapped by' in s or 'kernel layout' in s]
        before = g.frame_count()
        for tok in seq:
            self.helper(f'tap pad2 {self.MAPPED[tok]}', 'tap')
            time.sleep(0.15)
        try:
            g.settle(before, timeout=10)
        except Timeout:
            return self.report('FAIL', 'mapped-pad', f'no frame after the d-pad taps on {node}; the game said: '
                               f'{" | ".join(said) or "nothing about its mapping"}')
        self.keys_done += seq + ['modifier']
        g.send_keys(['shift'])
        g.quiet(1.0)
        self.helper('unplug pad2', 'unplug')
        why = self.same_as_headless('after the mapped pad\'s d-pad and a lone Shift', 'mapped-pad')
        if why:
            return self.report('FAIL', 'mapped-pad', why)
        self.report('PASS', 'mapped-pad', f'a Mayflash GameCube pad ({node}, d-pad on buttons the kernel layout '
                    f'does not know) moved the player {" ".join(seq)} with no setup'
                    f'{": " + said[-1] if said else ""}')

    def mouse(self):
        g = self.g
        keys = self.keys_done
        if not self.rig.font:
            raise RuntimeError(f'no {self.rig.font_path} to find the player with')
        cell = find_glyph(self.headless(keys), self.rig.font, '@', self.rig.map_rows)
        if not cell:
            raise RuntimeError(f'cannot find the player (@ in {self.rig.font_path}) in the headless frame')
        (cx, cy), (cw, ch) = cell
        w, h = self.size
        base = g.screendump('mouse-before')
        node, seen = self.plug('mouse', 'vmrig virtual mouse')
        # Park the pointer in the bottom right corner (the HUD: no map cell,
        # nothing hovered), then move it onto the player's cell.
        for cmd in ('emit mouse EV_REL REL_X 10000', 'emit mouse EV_REL REL_Y 10000', 'sync mouse'):
            self.helper(cmd, cmd.split()[0])
        g.quiet(1.0)
        parked = g.screendump('mouse-parked')
        if compare(base, parked) is not None:
            return self.report('FAIL', 'mouse', f'the pointer parked on the HUD changed the screen: {compare(base, parked)}')
        before = g.frame_count()
        tx, ty = cx * cw + cw // 2, cy * ch + ch // 2
        for cmd in (f'emit mouse EV_REL REL_X {tx - (w - 1)}', f'emit mouse EV_REL REL_Y {ty - (h - 1)}', 'sync mouse'):
            self.helper(cmd, cmd.split()[0])
        try:
            g.settle(before, timeout=10)
        except Timeout:
            return self.report('FAIL', 'mouse', f'no frame after the pointer moved onto the player (cell {cx},{cy}) '
                               f'with {node} (the game {"logged" if seen else "did not log"} the new mouse)')
        hover = g.screendump('mouse-hover')
        if compare(base, hover) is None:
            return self.report('FAIL', 'mouse', 'hovering the player changed nothing on screen')
        # A left click on the player's cell looks at it, as 'x' does; moving
        # the pointer back onto the HUD ends the hover.
        before = g.frame_count()
        self.helper('tap mouse BTN_LEFT', 'tap')
        for cmd in (f'emit mouse EV_REL REL_X {(w - 1) - tx}', f'emit mouse EV_REL REL_Y {(h - 1) - ty}', 'sync mouse'):
            self.helper(cmd, cmd.split()[0])
        try:
            g.settle(before, timeout=10)
        except Timeout:
            return self.report('FAIL', 'mouse', 'no frame after the click')
        self.keys_done = keys + ['x']
        why = self.same_as_headless('after a click on the player (expected: look, as x)', 'mouse-click')
        if why:
            return self.report('FAIL', 'mouse', why)
        before = g.frame_count()
        g.send_keys(['escape'])
        self.keys_done.append('escape')
        g.settle(before, timeout=10)
        why = self.same_as_headless('escape after the click', 'mouse-escape')
        if why:
            return self.report('FAIL', 'mouse', why)
        self.report('PASS', 'mouse', f'a uinput mouse ({node}): parked on the HUD nothing changed, hovering the player '
                    f'(cell {cx},{cy}) showed it, a click looked at it exactly as x does (frame equals the headless one)')

    def chvt(self):
        try:
            self.chvt_run()
        finally:
            rc, out = self.g.sh('vmhelper vt')
            if out and 'active=1' not in out[-1]:
                self.g.sh('timeout 10 chvt 1', timeout=20)

    def chvt_run(self):
        g = self.g
        before = g.frame_count()
        game_img = g.screendump('chvt-before')
        rc, out = g.sh('timeout 10 chvt 2; echo "VMRIG_CHVT $?"; vmhelper vt', timeout=20)
        vt = ([s for s in out if s.startswith('VH vt')] or ['no VT report'])[0]
        if 'active=2' not in vt:
            return self.report('FAIL', 'chvt', f'chvt 2 did not switch (the game did not release the VT?): '
                               f'{" | ".join(out)}')
        for _ in range(20):     # the console redraws itself on VT 2
            time.sleep(0.25)
            away = g.screendump('chvt-away')
            if compare(game_img, away) is not None:
                break
        if compare(game_img, away) is None:
            return self.report('FAIL', 'chvt', 'on VT 2 the screen still shows the game: it kept the display')
        # A key pressed on VT 2 must not reach the game.
        g.send_keys(['l'])
        rc, out = g.sh('timeout 10 chvt 1; echo "VMRIG_CHVT $?"; vmhelper vt', timeout=20)
        vt = ([s for s in out if s.startswith('VH vt')] or ['no VT report'])[0]
        if 'active=1' not in vt or 'mode=graphics' not in vt:
            return self.report('FAIL', 'chvt', f'back on VT 1: {vt}')
        try:
            n = g.settle(before, timeout=10)
        except Timeout:
            return self.report('FAIL', 'chvt', 'no frame presented after returning to VT 1 (no redraw)')
        why = self.same_as_headless('after chvt 2, a key on VT 2, chvt 1', 'chvt')
        if why:
            return self.report('FAIL', 'chvt', why)
        self.report('PASS', 'chvt', f'on VT 2 the console was shown, a key there did not reach the game; '
                    f'back on VT 1 frame #{n} redrew the game exactly')

    def ctrl_alt_fn(self):
        try:
            self.ctrl_alt_fn_run()
        finally:
            rc, out = self.g.sh('vmhelper vt')
            if out and 'active=1' not in out[-1]:
                self.g.sh('timeout 10 chvt 1', timeout=20)

    def ctrl_alt_fn_run(self):
        g = self.g
        before = g.frame_count()
        g.send_keys(['ctrl-alt-f2'])
        vt = 'no VT report'
        for _ in range(25):
            rc, out = g.sh('vmhelper vt')
            vt = out[-1] if out else vt
            if 'active=2' in vt:
                break
            time.sleep(0.2)
        if 'active=2' not in vt:
            return self.report('FAIL', 'ctrl-alt-fn', f'Ctrl+Alt+F2 did not switch to VT 2 ({vt})')
        rc, out = g.sh('timeout 10 chvt 1; vmhelper vt', timeout=20)
        try:
            n = g.settle(before, timeout=10)
        except Timeout:
            return self.report('FAIL', 'ctrl-alt-fn', 'no frame presented after returning to VT 1 (no redraw)')
        why = self.same_as_headless('after Ctrl+Alt+F2 and chvt 1', 'ctrl-alt-fn')
        if why:
            return self.report('FAIL', 'ctrl-alt-fn', why)
        self.report('PASS', 'ctrl-alt-fn', f'Ctrl+Alt+F2 (QMP) switched to VT 2 through the game; back on VT 1 '
                    f'frame #{n} redrew the game exactly')

    def sigint_sighup(self, backend):
        """SIGINT and SIGHUP, each on a fresh game: the VT is given back."""
        self.killed_by('sigint-sighup', backend, (('INT', 2), ('HUP', 1)), dies=False)

    def crash(self, backend):
        """SIGSEGV: the crash path restores the VT (the game dies of the signal)."""
        self.keys_done = []
        self.start_game(backend)
        playing = self.vt_now()
        status, after = self.kill_game('SEGV')
        kb_before = self.vt_before.split('kbmode=')[-1]
        problems = []
        if 'mode=graphics' not in playing:
            problems.append(f'while playing the VT was not in graphics mode ({playing})')
        if 'mode=text' not in after or f'kbmode={kb_before}' not in after:
            problems.append(f'after the crash the VT was not restored (before the game kbmode={kb_before}; after: {after})')
        crtc = self.crtc_restored('crash')
        if crtc:
            problems.append(crtc)
        if problems:
            return self.report('FAIL', 'crash', '; '.join(problems))
        self.report('PASS', 'crash', f'kill -SEGV: exit status {status}; after: {after[6:]} (as before), '
                    f'the console\'s mode back')

    def console_tty(self, backend):
        """Started on the console's own terminal (a login shell, a systemd
        unit with a TTY): the game takes the VT on its stdin without --vt,
        draws the same frame, and gives the VT back on SIGTERM."""
        self.keys_done = []
        n = self.start_game(backend, on_tty=True)
        why = self.same_as_headless('started on tty1', 'console-tty')
        playing = self.vt_now()
        status, after = self.kill_game('TERM')
        kb_before = self.vt_before.split('kbmode=')[-1]
        problems = [why] if why else []
        if 'mode=graphics' not in playing or 'kbmode=off' not in playing:
            problems.append(f'while playing the VT was not in graphics mode with the keyboard off ({playing})')
        if status != '0':
            problems.append(f'exit status {status}')
        if 'mode=text' not in after or f'kbmode={kb_before}' not in after:
            problems.append(f'VT not given back ({after})')
        if problems:
            return self.report('FAIL', 'console-tty', '; '.join(problems))
        self.report('PASS', 'console-tty', f'stdin/stdout on tty1 (setsid -c), no --vt: frame #{n} equals the headless '
                    f'one; while playing {playing[6:]}; after SIGTERM exit 0, {after[6:]}')

    def auto_scale(self, backend):
        """Without --scale, at 1280x800 the 8x8 font fits 80x50 cells at
        scale 2: the display backend must choose what headless chooses."""
        g = self.g
        saved = self.size
        self.size = (1280, 800)
        self.keys_done = []
        try:
            n = self.start_game(backend)
            why = self.same_as_headless('at 1280x800 without --scale', 'auto-scale')
        finally:
            self.size = saved
            if self.pid:
                g.sh(f'kill -TERM {self.pid}; wait {self.pid}', timeout=30)
                self.pid = None
        if why:
            return self.report('FAIL', 'auto-scale', why)
        self.report('PASS', 'auto-scale', f'{backend} frame #{n} at 1280x800 (scale 2 chosen by the backend) equals '
                    'the headless frame at that size, pixel for pixel')

    def hotplug(self, backend):
        """The display unplugged and plugged back while playing (sysfs
        forces the connector off, then back to detection, each announced
        with a uevent as a real HDMI plug would be). While it is away the
        game keeps running and takes a key, but draws nothing (QEMU keeps
        showing the old picture); when it returns the game sets the mode
        again and shows the current state."""
        g = self.g
        self.keys_done = []
        self.start_game(backend)
        conn = 'for s in /sys/class/drm/card0-*/status; do echo {} > "$s"; done; echo change > /sys/class/drm/card0/uevent'
        try:
            rc, out = g.sh(conn.format('off'))
            if rc != 0:
                raise RuntimeError('cannot force the connector off: ' + ' | '.join(out))
            time.sleep(1.5)
            before = g.frame_count()
            g.send_keys(['l'])
            g.settle(before, timeout=10)
            rc, out = g.sh(f'kill -0 {self.pid} && echo VMRIG_ALIVE')
            if 'VMRIG_ALIVE' not in out:
                self.pid = None
                return self.report('FAIL', 'hotplug', 'the game exited when the display was unplugged')
            why = self.same_as_headless('while unplugged (the game must not draw)', 'hotplug-off')
            if why:
                return self.report('FAIL', 'hotplug', 'the unplug was not noticed: the game kept drawing. ' + why)
            g.sh(conn.format('detect'))
            time.sleep(1.5)
            self.keys_done = ['l']
            why = self.same_as_headless('after the display came back', 'hotplug-back')
            if why:
                return self.report('FAIL', 'hotplug', why)
        finally:
            if self.pid:
                g.sh(f'kill -TERM {self.pid}; wait {self.pid}', timeout=30)
                self.pid = None
        self.report('PASS', 'hotplug', 'unplugged (connector forced off + uevent): the game kept running, took a key '
                    'and drew nothing; plugged back: it set the mode again and showed the frame after that key, '
                    'equal to the headless one')

    def second_instance(self):
        """A second pirogue started while the first plays: it says in one
        line that the display is taken, exits 1, and leaves the first one's
        VT (graphics mode, keyboard off) and screen exactly as they were."""
        before = self.vt_now()
        status, after, out = self.shell_result(
            f'PIROGUE_CONFIG=/dev/null pirogue --backend drm --seed 2 --vt 1 --font /bin/fonts/{FONT} '
            f'--mode {self.size[0]}x{self.size[1]}')
        said = [s for s in out if s.startswith('pirogue:')]
        problems = []
        if status != '1':
            problems.append(f'the second instance exited {status}, not 1')
        if len(said) != 1 or 'display is taken' not in said[0]:
            problems.append(f'it said {said!r}, not one line that the display is taken')
        if after != before:
            problems.append(f'the first game\'s VT changed: {before} -> {after}')
        why = self.same_as_headless('the first game after the second tried', 'second-instance')
        if why:
            problems.append(why)
        if problems:
            return self.report('FAIL', 'second-instance', '; '.join(problems))
        self.report('PASS', 'second-instance', f'exit 1 with "{said[0][:110]}..."; the first game\'s VT ({before[6:]}) '
                    'and screen unchanged')

    def reset_vt_live(self):
        """pirogue --reset-vt 1 while the game plays on VT 1 (issue 11,
        defect 1): refused with one line naming the game, exit 1; the game's
        VT (graphics mode, keyboard off) and picture stay as they were. It
        used to exit 0 silently, put the console's mode back and leave the
        game unable to follow VT switches."""
        before = self.vt_now()
        status, after, out = self.shell_result('PIROGUE_CONFIG=/dev/null pirogue --reset-vt 1')
        said = [s for s in out if s.startswith('pirogue')]
        problems = []
        if 'mode=graphics' not in before:
            problems.append(f'the game is not playing on VT 1 ({before}): the check proves nothing')
        if status != '1':
            problems.append(f'--reset-vt 1 exited {status}, not 1')
        if len(said) != 1 or 'in use' not in said[0] or f'pid {self.pid}' not in said[0]:
            problems.append(f'it said {said!r}, not one line naming the game (pid {self.pid}) that holds the VT')
        if after != before:
            problems.append(f'the game\'s VT changed: {before} -> {after}')
        why = self.same_as_headless('the game after --reset-vt 1 was refused', 'reset-vt-live')
        if why:
            problems.append(why)
        if problems:
            return self.report('FAIL', 'reset-vt-live', '; '.join(problems))
        self.report('PASS', 'reset-vt-live', f'exit 1 with "{said[0][:100]}"; the game\'s VT ({before[6:]}) and '
                    'picture unchanged')

    def sigquit_sigsys(self, backend):
        """SIGQUIT and SIGSYS (the kill action of a syscall filter), each on
        a fresh game (issue 11, defect 4): the game dies of the signal with VT
        1 back in text mode, its keyboard mode, and the console's mode on the
        display. They used to leave the VT dark and deaf."""
        self.killed_by('sigquit-sigsys', backend, (('QUIT', 3), ('SYS', 31)), dies=True)

    def killed_by(self, check, backend, sigs, dies):
        """Each signal of sigs ((name, number), ...) on a fresh game: VT 1 is
        back in text mode with its keyboard mode; when dies, the game died of
        the signal (exit 128 + N) and the console's mode is on the display."""
        kb_before = self.vt_before.split('kbmode=')[-1]
        seen = []
        for sig, num in sigs:
            self.keys_done = []
            self.start_game(backend, dfl=dies)
            playing = self.vt_now()
            status, after = self.kill_game(sig)
            if 'mode=graphics' not in playing:
                return self.report('FAIL', check, f'SIG{sig}: while playing the VT was not in graphics mode ({playing})')
            if 'mode=text' not in after or f'kbmode={kb_before}' not in after:
                return self.report('FAIL', check, f'SIG{sig} (exit {status}): VT not restored (before the game '
                                   f'kbmode={kb_before}; after: {after})')
            if dies and status != str(128 + num):
                return self.report('FAIL', check, f'SIG{sig}: exit status {status}, not {128 + num} '
                                   '(the game must still die of the signal)')
            crtc = self.crtc_restored(f'sig{sig.lower()}') if dies else None
            if crtc:
                return self.report('FAIL', check, f'SIG{sig}: {crtc}')
            seen.append(f'SIG{sig}: exit {status}')
        self.report('PASS', check, f'{", ".join(seen)}{" (died of the signal)" if dies else ""}; each time VT 1 was '
                    f'back in text mode with kbmode={kb_before}{" and the console mode on the display" if dies else ""}')

    def start_failure(self, cmd, wants):
        """Runs a start that must fail: exit 1 and one line holding every
        string of wants on stderr/stdout (redirected to a file, stdin from
        /dev/null, as a unit would start it), VT 1 left in text mode. Returns
        (why not, or '') and the line it said."""
        g = self.g
        rc, out = g.sh(f'{cmd} </dev/null >/tmp/start.out 2>&1; echo "VMRIG_EXIT $?"; '
                       'sed "s/^/VMRIG_OUT /" /tmp/start.out; vmhelper vt 1', timeout=40)
        ex = [s for s in out if s.startswith('VMRIG_EXIT')]
        status = ex[0].split()[1] if ex else '?'
        said = [s[len('VMRIG_OUT '):] for s in out if s.startswith('VMRIG_OUT')]
        after = ([s for s in out if s.startswith('VH vt')] or ['no VT report'])[0]
        problems = []
        if status != '1':
            problems.append(f'exit {status}, not 1')
        if len(said) != 1 or any(w not in said[0] for w in wants):
            problems.append(f'it said {said!r}, not one line with {" and ".join(repr(w) for w in wants)}')
        if 'mode=text' not in after:
            problems.append(f'VT 1 left as {after}')
        return ('; '.join(problems), said[0] if said else '')

    def no_display(self):
        """Started with nothing to show the game on (the connector forced
        off; /dev/fb0 is the DRM driver's own emulation) and stdin/stdout not
        a terminal (issue 11, defect 2): one line saying why, exit 1. It used
        to draw one headless frame and exit 0 without a word."""
        g = self.g
        conn = 'for s in /sys/class/drm/card0-*/status; do echo {} > "$s"; done; echo change > /sys/class/drm/card0/uevent'
        rc, out = g.sh(conn.format('off'))
        if rc != 0:
            raise RuntimeError('cannot force the connector off: ' + ' | '.join(out))
        try:
            why, said = self.start_failure(f'PIROGUE_CONFIG=/dev/null pirogue --seed 1 --vt 1 '
                                           f'--font /bin/fonts/{FONT}', ['nothing can show the game', 'no connected'])
        finally:
            g.sh(conn.format('detect'))
            time.sleep(1.0)
        if why:
            return self.report('FAIL', 'no-display', why)
        self.report('PASS', 'no-display', f'exit 1 with "{said[:120]}..."; VT 1 untouched')

    def unreadable_card(self):
        """A user who may not open the card (issue 11, defect 2): the
        automatic choice says so in one line and names the video group,
        exit 1; --backend drm says the same, not that the display is taken."""
        g = self.g
        rc, out = g.sh('chmod 600 /dev/dri/card0 && { [ ! -e /dev/fb0 ] || chmod 600 /dev/fb0; } && ls -l /dev/dri/card0')
        if rc != 0:
            raise RuntimeError('cannot make the card unreadable: ' + ' | '.join(out))
        user = 'vmhelper asuser 65534 env PIROGUE_CONFIG=/dev/null'
        seen = []
        for what, args, wants in (('automatic choice', '--seed 1 --vt 1', ['nothing can show the game', 'video group']),
                                  ('--backend drm', '--backend drm --seed 1 --vt 1', ['cannot be used', 'video group'])):
            why, said = self.start_failure(f'{user} pirogue {args} --font /bin/fonts/{FONT}', wants)
            if not why and 'taken' in said:
                why = f'it says the display is taken: "{said}"'
            if why:
                return self.report('FAIL', 'unreadable-card', f'{what}: {why}')
            seen.append(f'{what}: "{said[:90]}..."')
        self.report('PASS', 'unreadable-card', 'as uid 65534 with card0 (and fb0) mode 600, exit 1 each: ' + '; '.join(seen))

    def sigterm(self):
        playing = self.vt_now()
        status, after = self.kill_game('TERM')
        problems = []
        if 'mode=graphics' not in playing or 'kbmode=off' not in playing:
            problems.append(f'while playing the VT was not in graphics mode with the keyboard off ({playing})')
        if status != '0':
            problems.append(f'exit status {status}')
        if 'mode=text' not in after:
            problems.append(f'VT not back in text mode ({after})')
        kb_before = self.vt_before.split('kbmode=')[-1]
        if f'kbmode={kb_before}' not in after:
            problems.append(f'keyboard mode not restored (before the game {kb_before}; after: {after})')
        crtc = self.crtc_restored('sigterm')
        if crtc:
            problems.append(crtc)
        if problems:
            return self.report('FAIL', 'sigterm', '; '.join(problems))
        self.report('PASS', 'sigterm', f'exit 0; while playing {playing[6:]}; after: {after[6:]} (as before), '
                    f'the console\'s {self.console_size[0]}x{self.console_size[1]} mode back')

    def display_state(self):
        """The kernel's own word on card0's display: the connectors' DPMS
        (sysfs) and the CRTC's active flag (debugfs dri/0/state), e.g.
        "DPMS Off, crtc active=0". On the fbdev backend /dev/fb0 is the DRM
        driver's fbdev emulation, so the same two tell whether FBIOBLANK
        switched it off (/sys/class/graphics/fb0/blank reads empty)."""
        rc, out = self.g.sh('grep -q debugfs /proc/mounts || mount -t debugfs debugfs /sys/kernel/debug; '
                            'echo "VMRIG_DISPLAY DPMS $(cat /sys/class/drm/card0-*/dpms | tr "\\n" " ")'
                            'crtc $(grep -m1 "active=" /sys/kernel/debug/dri/0/state | tr -d "\\t")"')
        said = [ln[len('VMRIG_DISPLAY '):].strip() for ln in out if ln.startswith('VMRIG_DISPLAY ')]
        return said[-1].replace(' crtc', ', crtc') if said else 'nothing read'

    @staticmethod
    def display_is(state, on):
        """Whether display_state's state says on (or off); a kernel without
        debugfs leaves the CRTC out and DPMS alone decides."""
        crtc = 'active=1' if on else 'active=0'
        return ('DPMS On' if on else 'DPMS Off') in state and (crtc in state or 'active=' not in state)

    def blank(self, backend):
        """A fresh game with --blank 5s: after 5 s without input it
        switches the display off (drm: the connector's DPMS property; fbdev:
        FBIOBLANK) and says "screen blanked (display off)", not "a black
        frame"; the kernel agrees (the connectors' DPMS Off, the CRTC
        inactive) and the screendump is dark (at most 1% of its pixels lit:
        QEMU may write a "not active" line); a key switches it on again
        (DPMS On, CRTC active, "screen unblanked") and does nothing else:
        the frame equals the headless start frame."""
        g = self.g
        if self.pid:
            g.sh(f'kill -TERM {self.pid}; wait {self.pid}', timeout=30)
            self.pid = None
        self.keys_done = []
        how = 'DPMS' if backend == 'drm' else 'FBIOBLANK'
        mark = g.mark()
        self.start_game(backend, extra=['--blank', '5s'])
        lit = self.display_state()
        if not self.display_is(lit, True):
            return self.report('FAIL', 'blank', f'while the game shows its first frame the kernel says: {lit}')
        if not g.wait_line('screen blanked', mark, 30):
            return self.report('FAIL', 'blank', 'no "screen blanked" line 30 s after the start')
        with g.lock:
            said = [ln for ln in g.history[mark:] if 'screen blanked' in ln][-1]
        if 'display off' not in said:
            return self.report('FAIL', 'blank', f'{how} did not switch the display off: {said}')
        state = ''
        for _ in range(20):
            state = self.display_state()
            if self.display_is(state, False):
                break
            time.sleep(0.5)
        else:
            return self.report('FAIL', 'blank', f'the game switched the display off but the kernel says: {state}')
        dark = g.screendump(self.tag + 'blank-off')
        w, h, px = dark
        lit_px = sum(1 for i in range(0, len(px), 3) if px[i] | px[i + 1] | px[i + 2])
        if compare(dark, self.headless([])) is None or lit_px * 100 > w * h:
            return self.report('FAIL', 'blank', f'the display is not dark: {lit_px} of {w * h} pixels lit '
                               f'(see {g.outdir}/{self.tag}blank-off.png)')
        mark = g.mark()
        before = g.frame_count()
        g.send_keys(['l'])
        n = g.settle(before, timeout=10)
        on = self.display_state()
        if not self.display_is(on, True):
            return self.report('FAIL', 'blank', f'after a key the kernel says: {on}')
        if not g.wait_line('screen unblanked', mark, 5):
            return self.report('FAIL', 'blank', 'a key brought a frame but no "screen unblanked" line')
        why = self.same_as_headless('after the key that woke the screen (it must not move)', 'blank-wake')
        if why:
            return self.report('FAIL', 'blank', why)
        g.sh(f'kill -TERM {self.pid}; wait {self.pid}', timeout=30)
        self.pid = None
        self.report('PASS', 'blank', f'playing: {lit}; 5 s later, off through {how}: {state}, the screen dark ({lit_px} of '
                    f'{w * h} pixels lit); a key: {on}, frame #{n} equals the headless start frame (the key did not '
                    'move the player)')

    def tiles(self, backend):
        """A fresh game with the automatic look and --tiles on (issue 17's
        pictures: the shipped fonts and tile sheets, found beside the
        binary): its start frame and the frame after TILE_KEYS equal headless
        --tiles on at the same size, and it never said it had no sheet."""
        g = self.g
        if self.pid:
            g.sh(f'kill -TERM {self.pid}; wait {self.pid}', timeout=30)
            self.pid = None
        self.keys_done = []
        tiles = ['--tiles', 'on']
        if compare(self.headless([], False, tiles), self.headless([], False)) is None:
            raise RuntimeError('headless --tiles on draws the same start frame as glyphs: the check would prove nothing')
        mark = g.mark()
        self.start_game(backend, extra=tiles, font=False)
        why = self.same_as_headless('the start frame with --tiles on', 'tiles-start', False, tiles)
        n = None
        if not why:
            before = g.frame_count()
            g.send_keys(self.TILE_KEYS)
            self.keys_done += self.TILE_KEYS
            n = g.settle(before, timeout=10)
            why = self.same_as_headless(f'after {" ".join(self.TILE_KEYS)} with --tiles on', 'tiles', False, tiles)
        with g.lock:
            said = [ln for ln in g.history[mark:] if ln.startswith('pirogue:') and 'tile sheet' in ln]
            layout = ([ln for ln in g.history[mark:] if ln.startswith('pirogue: layout ')] or ['no layout line'])[-1]
        g.sh(f'kill -TERM {self.pid}; wait {self.pid}', timeout=30)
        self.pid = None
        if said:
            return self.report('FAIL', 'tiles', f'the game said: {" | ".join(said)}')
        if why:
            return self.report('FAIL', 'tiles', why)
        self.report('PASS', 'tiles', f'{backend} with --tiles on ({layout[9:]}): the start frame and frame #{n} after '
                    f'{" ".join(self.TILE_KEYS)} equal headless --tiles on at {self.size[0]}x{self.size[1]}, pixel for pixel')

    def crtc_restored(self, name):
        """None when the display shows the console's mode again (the game's
        DRM mode differs from it), else why not."""
        if self.tag:
            return None   # fbdev does not change the mode
        for _ in range(10):
            size = self.g.screendump(f'{name}-after')[:2]
            if size == self.console_size:
                return None
            time.sleep(0.2)
        return (f'the display still has {size[0]}x{size[1]}, not the console\'s '
                f'{self.console_size[0]}x{self.console_size[1]}: the CRTC was not restored')


class NotBuilt(Exception):
    pass


CONFIGS = {
    # (unit: the evdev-unit check, test_evdev on the guest's uinput)
    'x86_64-bochs': {'arch': 'x86_64', 'gpu': 'bochs', 'fbdev': True, 'unit': True},
    'x86_64-virtio': {'arch': 'x86_64', 'gpu': 'virtio'},
    # cirrus prefers 16 bits per pixel: the RGB565 path of the drm backend
    'x86_64-cirrus': {'arch': 'x86_64', 'gpu': 'cirrus', 'rgb565': True,
                      'checks': ['start-frame', 'keys', 'sigterm']},
    'aarch64-virtio': {'arch': 'aarch64', 'gpu': 'virtio'},
    # Handheld panels (docs/vmrig.md): virtio-gpu with the panel's size as
    # its preferred mode; the game's frame there equals headless at that size.
    'x86_64-panel-320x240': {'arch': 'x86_64', 'gpu': 'virtio', 'panel': (320, 240), 'checks': ['start-frame', 'keys']},
    'x86_64-panel-480x320': {'arch': 'x86_64', 'gpu': 'virtio', 'panel': (480, 320), 'checks': ['start-frame', 'keys']},
    'x86_64-panel-640x480': {'arch': 'x86_64', 'gpu': 'virtio', 'panel': (640, 480), 'checks': ['start-frame', 'keys']},
    'x86_64-panel-800x480': {'arch': 'x86_64', 'gpu': 'virtio', 'panel': (800, 480), 'checks': ['start-frame', 'keys']},
    # a portrait panel (480x800, as many DSI panels are) turned with --rotate 90
    'x86_64-panel-480x800-rot90': {'arch': 'x86_64', 'gpu': 'virtio', 'panel': (480, 800), 'rotate': 90,
                                   'checks': ['start-frame', 'keys']},
    # Debian 12 with systemd, pirogue installed from its .deb and made the
    # kiosk with pirogue-kiosk (tests/vm/sysboot.py)
    'x86_64-systemd': {'arch': 'x86_64', 'gpu': 'virtio-vga', 'systemd': True},
    # the same with the arm64 package on an arm64 Debian system (virt,
    # cortex-a72, virtio-gpu): install, one boot into the kiosk (title,
    # security, keys, gamepad, Ctrl+Alt+F2, SIGKILL), then the purge; the
    # restart burst, the failing start and the power cut are x86_64's alone
    'aarch64-systemd': {'arch': 'aarch64', 'gpu': 'virtio', 'systemd': True,
                        'play': ('security', 'keys', 'gamepad', 'ctrl_alt_fn', 'sigkill')},
    # the Raspberry Pi card image of make image (board/make-image), its own
    # kernel, initrd and read-only root booted in virt (tests/vm/imageboot.py)
    'aarch64-image': {'arch': 'aarch64', 'gpu': 'virtio', 'image': True},
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--cache', required=True, help='build/vm: kernels and initramfs images')
    ap.add_argument('--out', required=True, help='where screendumps, expected frames and serial logs go')
    ap.add_argument('--pirogue', required=True, help='host pirogue binary (headless reference frames)')
    ap.add_argument('--debs', help='where make deb left pirogue_*_amd64.deb and _arm64.deb (the -systemd configurations)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--mode', default='640x480', help='display mode the game asks for (WxH)')
    ap.add_argument('configs', nargs='*', default=list(CONFIGS), help=f'any of {", ".join(CONFIGS)}')
    args = ap.parse_args()
    args.mode = [int(v) for v in args.mode.split('x')]
    os.makedirs(args.out, exist_ok=True)
    rig = Rig(args)
    for c in args.configs:
        if c not in CONFIGS:
            print(f'vmrig: unknown configuration {c} (known: {", ".join(CONFIGS)})')
            return 1
        cfg = dict(CONFIGS[c], name=c)
        rig.run_config(cfg)
    p, f, s = (rig.results.count(v) for v in ('PASS', 'FAIL', 'SKIP'))
    print(f'vmrig: {p} passed, {f} failed, {s} skipped')
    return 1 if f or not rig.results else (77 if s else 0)


if __name__ == '__main__':
    sys.exit(main())
