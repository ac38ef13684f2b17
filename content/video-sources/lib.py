"""Tiny top-down drawing kit: frames are drawn at 2x with Pillow, box-reduced to 640x360, piped to ffmpeg."""
import math
import subprocess
from PIL import Image, ImageDraw, ImageFont

W, H, S, FPS = 640, 360, 2, 24
FONT_PATH = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'
_fonts = {}


def font(size):
    if size not in _fonts:
        _fonts[size] = ImageFont.truetype(FONT_PATH, int(size * S))
    return _fonts[size]


GRASS = (104, 163, 76)
GRASS_DARK = (88, 145, 64)
ROAD = (92, 96, 102)
WHITE = (245, 245, 245)
YELLOW = (240, 200, 40)
SIDEWALK = (196, 196, 188)
GLASS = (44, 62, 84)


def clamp(x, a=0.0, b=1.0):
    return max(a, min(b, x))


def smooth(t0, t1, t):
    u = clamp((t - t0) / (t1 - t0)) if t1 > t0 else (1.0 if t >= t1 else 0.0)
    return u * u * (3 - 2 * u)


def lerp(a, b, u):
    return a + (b - a) * u


class Motion:
    """1-D position from piecewise-linear velocity keyframes [(t, v), ...]; v is constant outside."""

    def __init__(self, x0, keys):
        self.x0 = x0
        self.keys = sorted(keys)

    def v(self, t):
        k = self.keys
        if t <= k[0][0]:
            return k[0][1]
        for (ta, va), (tb, vb) in zip(k, k[1:]):
            if t <= tb:
                return va + (vb - va) * (t - ta) / (tb - ta) if tb > ta else vb
        return k[-1][1]

    def x(self, t):
        k = self.keys
        x = self.x0
        if t <= k[0][0]:
            return x - k[0][1] * (k[0][0] - t) if t < 0 else x + k[0][1] * t  # keys start at 0
        for (ta, va), (tb, vb) in zip(k, k[1:]):
            if t <= ta:
                break
            te = min(t, tb)
            ve = va + (vb - va) * (te - ta) / (tb - ta) if tb > ta else vb
            x += (va + ve) / 2 * (te - ta)
        if t > k[-1][0]:
            x += k[-1][1] * (t - k[-1][0])
        return x

    def braking(self, t, eps=1e-3):
        return self.v(t + eps) < self.v(t) - 1e-6 or (self.v(t) == 0 and t >= self.keys[0][0])


class Canvas:
    def __init__(self, bg=GRASS):
        self.img = Image.new('RGBA', (W * S, H * S), bg + (255,))
        self.d = ImageDraw.Draw(self.img)

    # --- primitives in logical (640x360) coordinates -------------------------------------
    def rect(self, x0, y0, x1, y1, fill, outline=None, width=1, radius=0):
        box = [x0 * S, y0 * S, x1 * S, y1 * S]
        if radius:
            self.d.rounded_rectangle(box, radius * S, fill=fill, outline=outline, width=int(width * S))
        else:
            self.d.rectangle(box, fill=fill, outline=outline, width=int(width * S))

    def poly(self, pts, fill, outline=None, width=1):
        self.d.polygon([(x * S, y * S) for x, y in pts], fill=fill, outline=outline, width=int(width * S))

    def line(self, pts, fill, width=1):
        self.d.line([(x * S, y * S) for x, y in pts], fill=fill, width=int(width * S), joint='curve')

    def circle(self, x, y, r, fill, outline=None, width=1):
        self.d.ellipse([(x - r) * S, (y - r) * S, (x + r) * S, (y + r) * S], fill=fill, outline=outline,
                       width=int(width * S))

    def ellipse(self, x, y, rx, ry, fill, outline=None, width=1):
        self.d.ellipse([(x - rx) * S, (y - ry) * S, (x + rx) * S, (y + ry) * S], fill=fill, outline=outline,
                       width=int(width * S))

    def text(self, x, y, s, size, fill=WHITE, anchor='mm'):
        self.d.text((x * S, y * S), s, font=font(size), fill=fill, anchor=anchor)

    def overlay(self, fn):
        """Draw with alpha: fn(ImageDraw, canvas) on a transparent layer, then composite."""
        layer = Image.new('RGBA', self.img.size, (0, 0, 0, 0))
        saved = self.d
        self.d = ImageDraw.Draw(layer)
        fn(self)
        self.d = saved
        self.img = Image.alpha_composite(self.img, layer)
        self.d = ImageDraw.Draw(self.img)

    def dim(self, alpha):
        if alpha > 0:
            self.overlay(lambda c: c.rect(0, 0, W, H, (0, 0, 0, int(255 * alpha))))

    def whiteflash(self, alpha):
        if alpha > 0:
            self.overlay(lambda c: c.rect(0, 0, W, H, (255, 255, 240, int(255 * alpha))))

    def frame(self, shake=(0, 0)):
        img = self.img.convert('RGB')
        if shake != (0, 0):
            dx, dy = int(shake[0] * S), int(shake[1] * S)
            moved = Image.new('RGB', img.size, GRASS)
            moved.paste(img, (dx, dy))
            img = moved
        return img.reduce(S)


# --- objects ---------------------------------------------------------------------------------

def _xf(cx, cy, ang):
    ca, sa = math.cos(ang), math.sin(ang)

    def f(u, w):  # u forward, w to the vehicle's right
        return (cx + u * ca - w * sa, cy + u * sa + w * ca)

    return f


def _box(f, u0, u1, w0, w1):
    return [f(u0, w0), f(u1, w0), f(u1, w1), f(u0, w1)]


def car(c, cx, cy, ang_deg, color, brake=False, blink=False, length=44, width=24):
    a = math.radians(ang_deg)
    f = _xf(cx, cy, a)
    L, Wd, k = length / 2, width / 2, 4
    body = [f(L, -Wd + k), f(L - k, -Wd), f(-L + k, -Wd), f(-L, -Wd + k), f(-L, Wd - k), f(-L + k, Wd),
            f(L - k, Wd), f(L, Wd - k)]
    c.poly([(x + 1.5, y + 1.5) for x, y in body], (50, 60, 50))  # shadow
    dark = tuple(int(v * 0.72) for v in color)
    c.poly(body, color, outline=dark, width=1)
    c.poly([f(L - 9, -Wd + 4), f(L - 17, -Wd + 3), f(L - 17, Wd - 3), f(L - 9, Wd - 4)], GLASS)  # windshield
    c.poly(_box(f, L - 17, -L + 12, -Wd + 4, Wd - 4), tuple(min(255, int(v * 1.08) + 8) for v in color))  # roof
    c.poly([f(-L + 5, -Wd + 4), f(-L + 11, -Wd + 3), f(-L + 11, Wd - 3), f(-L + 5, Wd - 4)], GLASS)  # rear glass
    for s in (-1, 1):
        c.poly(_box(f, L - 3, L, s * (Wd - 6), s * (Wd - 2)), (255, 250, 200))  # headlights
        tail = (255, 40, 40) if brake else (140, 20, 20)
        c.poly(_box(f, -L, -L + 3, s * (Wd - 7), s * (Wd - 1)), tail)
        if brake:
            c.overlay(lambda cc, s=s: cc.poly(_box(f, -L - 5, -L, s * (Wd - 9), s * (Wd + 1)), (255, 60, 40, 110)))
        if blink:
            c.circle(*f(L - 1, s * (Wd - 1)), 2.5, (255, 170, 0))
            c.circle(*f(-L + 1, s * (Wd - 1)), 2.5, (255, 170, 0))


def truck(c, fx, cy, brake=False):
    """Tractor-trailer heading right; fx is the front bumper x. Length 158, width 32."""
    f = _xf(fx, cy, 0.0)
    Wd = 16
    c.poly([(x + 2, y + 2) for x, y in _box(f, 0, -158, -Wd, Wd)], (50, 60, 50))
    # cab
    c.poly(_box(f, 0, -34, -Wd + 1, Wd - 1), (40, 90, 170), outline=(25, 60, 120))
    c.poly(_box(f, -5, -12, -Wd + 3, Wd - 3), GLASS)
    c.poly(_box(f, -14, -32, -Wd + 5, Wd - 5), (60, 110, 190))
    # trailer
    c.poly(_box(f, -38, -158, -Wd, Wd), (226, 228, 232), outline=(150, 152, 158), width=1)
    for u in range(-50, -150, -20):
        c.line([f(u, -Wd + 3), f(u, Wd - 3)], (200, 202, 208), 1)
    for s in (-1, 1):
        tail = (255, 40, 40) if brake else (140, 20, 20)
        c.poly(_box(f, -158, -155, s * (Wd - 8), s * (Wd - 1)), tail)
        if brake:
            c.overlay(lambda cc, s=s: cc.poly(_box(f, -165, -158, s * (Wd - 10), s * (Wd + 1)), (255, 60, 40, 120)))


def school_bus(c, fx, cy, lights=None, on=False, arm=0.0, door=0.0):
    """School bus heading right, front bumper at fx. lights: None | 'amber' | 'red'; on toggles the pair."""
    f = _xf(fx, cy, 0.0)
    Wd, Lb = 15, 132
    c.poly([(x + 2, y + 2) for x, y in _box(f, 0, -Lb, -Wd, Wd)], (50, 60, 50))
    c.poly(_box(f, 0, -Lb, -Wd, Wd), (250, 190, 0), outline=(150, 110, 0))
    c.poly(_box(f, -2, -12, -Wd + 2, Wd - 2), (30, 30, 30))  # hood/engine front (black bumper+hood)
    c.poly(_box(f, -12, -20, -Wd + 3, Wd - 3), GLASS)
    c.line([f(-22, -Wd + 2), f(-Lb + 3, -Wd + 2)], (40, 40, 40), 1)
    c.line([f(-22, Wd - 2), f(-Lb + 3, Wd - 2)], (40, 40, 40), 1)
    for u in (-50, -95):
        c.poly(_box(f, u, u - 12, -6, 6), (225, 170, 0), outline=(170, 120, 0))  # roof hatches
    c.text(*f(-75, 0), 'SCHOOL BUS', 7, fill=(30, 30, 30))
    # door on the right side, near the front
    c.line([f(-22, Wd), f(-34, Wd)], (30, 30, 30) if door < 0.5 else (255, 255, 255), 2)
    # warning lights: amber inboard, red outboard, front and back
    for uu in (-14, -Lb + 3):
        for s in (-1, 1):
            lit = lights is not None and ((s == -1) == on)
            amber = (255, 175, 0) if lights == 'amber' and lit else (150, 110, 20)
            red = (255, 30, 30) if lights == 'red' and lit else (130, 25, 25)
            c.circle(*f(uu, s * (Wd - 8)), 2.4, amber)
            c.circle(*f(uu, s * (Wd - 3)), 2.6, red)
            if lit and lights:
                col = (255, 40, 30, 120) if lights == 'red' else (255, 180, 0, 110)
                px, py = f(uu, s * (Wd - 3) if lights == 'red' else s * (Wd - 8))
                c.overlay(lambda cc, px=px, py=py, col=col: cc.circle(px, py, 8, col))
    if arm > 0:  # stop arm swings out on the driver's (left) side
        px, py = f(-24, -Wd - 2 - 9 * arm)
        c.line([f(-24, -Wd), (px, py)], (60, 60, 60), 2)
        stop_sign(c, px, py, 5 + 2 * arm, text=False, blink=on and lights == 'red')


def stop_sign(c, x, y, r=12, text=True, blink=False):
    pts = [(x + r * math.cos(math.radians(22.5 + 45 * i)), y + r * math.sin(math.radians(22.5 + 45 * i)))
           for i in range(8)]
    c.poly(pts, (200, 20, 30) if not blink else (255, 40, 40), outline=WHITE, width=1.5)
    if text:
        c.text(x, y + 0.5, 'STOP', r * 0.55)


def tree(c, x, y, r=16):
    c.circle(x + 3, y + 3, r, (70, 110, 55))
    c.circle(x, y, r, (52, 120, 52), outline=(38, 92, 40), width=1.5)
    c.circle(x - r * 0.3, y - r * 0.3, r * 0.45, (70, 140, 64))


def bush(c, x, y, w, h):
    for i in range(int(w // 14) + 1):
        c.circle(x + i * 14, y + (i % 2) * 3, h / 2, (46, 110, 48), outline=(34, 84, 36), width=1)


def house(c, x, y, w, h, roof=(150, 70, 60)):
    c.rect(x + 3, y + 3, x + w + 3, y + h + 3, (70, 110, 55))
    c.rect(x, y, x + w, y + h, roof, outline=tuple(int(v * 0.7) for v in roof), width=1)
    c.poly([(x, y), (x + w, y), (x + w - h / 2, y + h / 2), (x + h / 2, y + h / 2)],
           tuple(min(255, v + 22) for v in roof))
    c.line([(x + h / 2, y + h / 2), (x + w - h / 2, y + h / 2)], tuple(int(v * 0.7) for v in roof), 1)


def child(c, x, y, ang_deg, shirt=(255, 140, 20), step=0.0, k=1.45):
    a = math.radians(ang_deg)
    f = _xf(x, y, a)
    sw = math.sin(step * 2 * math.pi) * 4 * k
    c.ellipse(*f(sw, 3.5 * k), 2.5 * k, 2.5 * k, (40, 50, 90))  # feet
    c.ellipse(*f(-sw, -3.5 * k), 2.5 * k, 2.5 * k, (40, 50, 90))
    c.circle(*f(-sw * 0.6, 8.5 * k), 2.2 * k, (230, 180, 130))  # hands
    c.circle(*f(sw * 0.6, -8.5 * k), 2.2 * k, (230, 180, 130))
    pts = [f(3.4 * k * math.cos(t), 8 * k * math.sin(t)) for t in [i * math.pi / 8 for i in range(16)]]
    c.poly(pts, shirt, outline=tuple(int(v * 0.6) for v in shirt))
    c.circle(x, y, 4.3 * k, (110, 70, 35))  # hair
    c.circle(*f(1.3 * k, 0), 2.6 * k, (230, 180, 130))


def ball(c, x, y, rot):
    c.circle(x + 1, y + 1, 7, (60, 80, 50))
    c.circle(x, y, 7, (230, 40, 40), outline=(150, 20, 20))
    dx, dy = 7 * math.cos(rot), 7 * math.sin(rot)
    c.line([(x - dx, y - dy), (x + dx, y + dy)], WHITE, 2)


def starburst(c, x, y, r, rot=0.0):
    pts = []
    for i in range(24):
        rr = r if i % 2 == 0 else r * 0.48
        t = rot + i * math.pi / 12
        pts.append((x + rr * math.cos(t), y + rr * math.sin(t)))
    c.poly(pts, (255, 236, 90), outline=(255, 140, 0), width=2)
    c.circle(x, y, r * 0.28, (255, 255, 230))


def flash(c, t, t0, x, y, dur=0.9, size=1.0):
    """Near-miss/bump burst at (x, y) starting at t0; returns a shake offset."""
    u = t - t0
    if u < 0 or u > dur:
        return (0, 0)
    c.whiteflash(0.55 * clamp(1 - u / 0.18))
    r = (14 + 18 * math.sin(clamp(u / dur) * math.pi) ** 0.5) * size
    starburst(c, x, y, r, rot=u * 2)
    if u < 0.35:
        k = (0.35 - u) / 0.35 * 3
        return (round(k * math.sin(u * 90)), round(k * math.cos(u * 70)))
    return (0, 0)


def badge(c, t, t0, good):
    """Green check or red cross, popping in at t0 in the top-right corner."""
    if t < t0:
        return
    u = clamp((t - t0) / 0.3)
    sc = 0.3 + 0.7 * u + 0.12 * math.sin(u * math.pi)
    x, y, r = 596, 44, 26 * sc
    c.circle(x + 2, y + 2, r, (30, 40, 30))
    c.circle(x, y, r, (34, 160, 70) if good else (205, 40, 40), outline=WHITE, width=3)
    if good:
        c.line([(x - 0.5 * r, y + 0.02 * r), (x - 0.12 * r, y + 0.42 * r), (x + 0.52 * r, y - 0.38 * r)], WHITE,
               max(1, 6 * sc))
    else:
        k = 0.42 * r
        c.line([(x - k, y - k), (x + k, y + k)], WHITE, max(1, 6 * sc))
        c.line([(x - k, y + k), (x + k, y - k)], WHITE, max(1, 6 * sc))


def label(c, x, y, s, size=13, bg=(20, 24, 30, 190), fg=WHITE):
    def draw(cc):
        bb = cc.d.textbbox((x * S, y * S), s, font=font(size), anchor='mm')
        pad = 5 * S
        cc.d.rounded_rectangle([bb[0] - pad, bb[1] - pad * 0.8, bb[2] + pad, bb[3] + pad * 0.8], 5 * S, fill=bg)
        cc.d.text((x * S, y * S), s, font=font(size), fill=fg, anchor='mm')

    c.overlay(draw)


def marker(c, x, y, t):
    """Bouncing white arrow pointing down at (x, y): marks 'you'."""
    b = 3 * math.sin(t * 6)
    c.poly([(x - 7, y - 14 + b), (x + 7, y - 14 + b), (x, y - 4 + b)], WHITE, outline=(30, 30, 30), width=1)


# --- encoding ----------------------------------------------------------------------------------

def render(path, duration, draw, crf=25):
    n = int(round(duration * FPS))
    cmd = ['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s',
           f'{W}x{H}', '-r', str(FPS), '-i', '-', '-an', '-c:v', 'libx264', '-profile:v', 'main', '-level', '3.0',
           '-preset', 'veryslow', '-tune', 'animation', '-crf', str(crf), '-pix_fmt', 'yuv420p',
           '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-vf',
           'scale=out_color_matrix=bt709:flags=accurate_rnd', '-movflags', '+faststart', path]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE)
    for i in range(n):
        img = draw(i / FPS)
        p.stdin.write(img.tobytes())
    p.stdin.close()
    if p.wait() != 0:
        raise SystemExit(f'ffmpeg failed for {path}')


def vtt(path, cues):
    def ts(s):
        ms = int(round(s * 1000))
        return f'{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}'

    with open(path, 'w', encoding='utf-8') as fh:
        fh.write('WEBVTT\n\n')
        for i, (a, b, text) in enumerate(cues, 1):
            fh.write(f'{i}\n{ts(a)} --> {ts(b)}\n{text}\n\n')
