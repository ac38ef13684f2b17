import math
from lib import *

RED, GREEN_CAR = (215, 40, 40), (60, 140, 90)
LANE_Y = 203
PATH_X = 566  # where the ball and the child cross
V = 60.0
CAR_LEN = 44


def scene_back(c):
    house(c, 30, 12, 110, 70, (150, 80, 70))
    house(c, 250, 8, 100, 72, (110, 110, 140))
    house(c, 430, 14, 90, 66, (170, 120, 80))
    house(c, 90, 280, 110, 66, (120, 130, 110))
    house(c, 360, 284, 100, 62, (160, 90, 90))
    for x, y in ((200, 60), (385, 95), (620, 40), (40, 300), (270, 320), (560, 310), (620, 300)):
        tree(c, x, y, 17)
    c.rect(0, 116, W, 134, SIDEWALK)
    c.rect(0, 226, W, 244, SIDEWALK)
    for x in range(0, W, 32):
        c.line([(x, 116), (x, 134)], (176, 176, 168), 1)
        c.line([(x, 226), (x, 244)], (176, 176, 168), 1)
    c.rect(0, 134, W, 226, ROAD)
    c.line([(0, 135), (W, 135)], (150, 150, 150), 1.5)
    c.line([(0, 225), (W, 225)], (150, 150, 150), 1.5)
    for x in range(-10, W, 44):
        c.line([(x, 180), (x + 22, 180)], YELLOW, 2)
    # parked car at the far curb, facing left
    car(c, 516, 158, 180, GREEN_CAR)


def scene_front(c):
    bush(c, 580, 104, 60, 22)  # hedge the child comes out from behind


def phone(c, t, big, buzzing):
    """big: 0 = small phone in the corner, 1 = phone filling the left of the view (eyes on the phone)."""
    x0, y0, x1, y1 = (lerp(a, b, big) for a, b in zip((14, 14, 62, 96), (40, 34, 220, 326)))
    if buzzing:
        off = 2 if int(t * 30) % 2 else -2
        x0 += off
        x1 += off
    w = x1 - x0
    r = w * 0.14
    c.rect(x0 + 2, y0 + 2, x1 + 2, y1 + 2, (20, 30, 20), radius=r)
    c.rect(x0, y0, x1, y1, (25, 25, 30), outline=(90, 90, 100), width=1.5, radius=r)
    sx0, sy0, sx1, sy1 = x0 + w * 0.08, y0 + w * 0.16, x1 - w * 0.08, y1 - w * 0.16
    lit = buzzing or big > 0
    c.rect(sx0, sy0, sx1, sy1, (70, 120, 200) if lit else (45, 50, 60))
    if lit:
        sw = sx1 - sx0
        rows = [(0.12, 0.62, True), (0.30, 0.5, False), (0.48, 0.7, True), (0.66, 0.4, False)]
        for k, (yy, ww, left) in enumerate(rows if big > 0.3 else rows[:1]):
            by = sy0 + (sy1 - sy0) * yy
            bh = max(3, (sy1 - sy0) * 0.1)
            bx0 = sx0 + sw * 0.06 if left else sx1 - sw * (0.06 + ww)
            c.rect(bx0, by, bx0 + sw * ww, by + bh, (245, 245, 245) if left else (120, 220, 130), radius=bh * 0.3)
    if buzzing:
        for s in (-1, 1):
            for k in (1, 2):
                xx = (x0 - 5 * k) if s < 0 else (x1 + 5 * k)
                cy = (y0 + y1) / 2
                c.line([(xx, cy - 6 - 3 * k), (xx + s * 2, cy), (xx, cy + 6 + 3 * k)], (255, 230, 80), 1.5)


def draw_common(t, car_front, ball_y, ball_rot, kid=None, dim=0.0, big=0.0, buzzing=False, braking=False,
                flash_at=None, badge_at=None, good=True):
    c = Canvas()
    scene_back(c)
    if ball_y is not None:
        ball(c, PATH_X - 6, ball_y, ball_rot)
    if kid is not None:
        child(c, PATH_X, kid[0], 90, step=kid[1])
    scene_front(c)
    car(c, car_front - CAR_LEN / 2, LANE_Y, 0, RED, brake=braking)
    shake = (0, 0)
    if flash_at is not None:
        shake = flash(c, t, flash_at, car_front + 4, LANE_Y - 30, size=0.7)
    c.dim(dim)
    phone(c, t, big, buzzing)
    if badge_at is not None:
        badge(c, t, badge_at, good)
    return c.frame(shake)


def ball_y_at(t_abs):
    """Ball rolls out from behind the hedge at t_abs = 4.2 (start-clip time), and stops on the far lawn."""
    m = Motion(0, [(0, 55), (2.7, 55), (3.5, 0)])
    u = t_abs - 4.2
    return 100 + m.x(max(0.0, u)), u


# ---------------- start ------------------------------------------------------------------------
START_LEN = 6.0
car_s = Motion(20, [(0, V)])


def start(t):
    by, u = ball_y_at(t)
    return draw_common(t, car_s.x(t), by if u > 0 else None, u * 8, buzzing=t > 3.4)


C1 = car_s.x(START_LEN)


def ball_out(t):
    by, u = ball_y_at(START_LEN + t)
    return by, u * 8 if u < 3.5 else 3.5 * 8


# ---------------- correct: eyes on the road, slow down, a child runs after the ball -----------------
CORRECT_LEN = 7.0
car_c = Motion(C1, [(0, V), (0.3, V), (1.9, 0), (4.4, 0), (5.4, 70), (8, 70)])
kid_c = Motion(100, [(0, 0), (1.0, 0), (1.3, 70), (3.09, 70), (3.49, 0)])


def correct(t):
    by, rot = ball_out(t)
    ky = kid_c.x(t)
    return draw_common(t, car_c.x(t), by, rot, kid=(ky, ky / 22), buzzing=t < 1.6,
                       braking=0.3 < t < 4.4, badge_at=5.4, good=True)


# ---------------- incorrect: eyes on the phone, near miss ------------------------------------------
INCORRECT_LEN = 7.0
LOOK_UP = 2.2
car_i = Motion(C1, [(0, V), (LOOK_UP + 0.1, V), (LOOK_UP + 0.7, 0)])
kid_i = Motion(100, [(0, 0), (0.8, 0), (1.0, 65), (2.45, 65), (2.55, 0), (3.2, 0), (3.5, 70), (3.9, 70), (4.2, 0)])


def incorrect(t):
    by, rot = ball_out(t)
    ky = kid_i.x(t)
    big = smooth(0.0, 0.35, t) * (1 - smooth(LOOK_UP - 0.15, LOOK_UP + 0.1, t))
    return draw_common(t, car_i.x(t), by, rot, kid=(ky, ky / 22), dim=0.45 * big, big=big, buzzing=False,
                       braking=t > LOOK_UP + 0.1, flash_at=LOOK_UP + 0.6, badge_at=5.2, good=False)


CAPTIONS = {
    'start': {
        'en': [(0, 3.4, 'You are driving the red car on a street\nwhere families live.'),
               (3.4, 6.0, 'Your phone buzzes with a new message.\nAt the same moment, a ball rolls into the street.')],
        'es': [(0, 3.4, 'Maneja el auto rojo por una calle\ndonde viven familias.'),
               (3.4, 6.0, 'Su teléfono vibra con un mensaje nuevo.\nEn ese mismo momento, una pelota rueda hacia la calle.')],
    },
    'correct': {
        'en': [(0, 1.0, 'You ignore the phone and keep your eyes on the road.'),
               (1.0, 3.8, 'You slow down and stop.\nA child runs out after the ball.'),
               (3.8, 5.4, 'The child is safe on the other side.\nYou drive on.'),
               (5.4, 7.0, 'Correct: a ball in the street can mean\na child is close behind. The message can wait.')],
        'es': [(0, 1.0, 'No hace caso al teléfono y mantiene la vista en el camino.'),
               (1.0, 3.8, 'Reduce la velocidad y se detiene.\nUn niño sale corriendo detrás de la pelota.'),
               (3.8, 5.4, 'El niño llega a salvo al otro lado.\nSigue su camino.'),
               (5.4, 7.0, 'Correcto: una pelota en la calle puede significar\nque hay un niño cerca. El mensaje puede esperar.')],
    },
    'incorrect': {
        'en': [(0, LOOK_UP, 'You look down at your phone.\nYou do not see the child running after the ball.'),
               (LOOK_UP, 4.0, 'You look up just in time and slam on the brakes.\nYou stop only inches from the child!'),
               (4.0, 7.0, 'Reading a message takes your eyes off the road\nfor about 5 seconds. No message is worth a life.')],
        'es': [(0, LOOK_UP, 'Mira su teléfono.\nNo ve al niño que corre detrás de la pelota.'),
               (LOOK_UP, 4.0, 'Levanta la vista justo a tiempo y frena de golpe.\n¡Se detiene a centímetros del niño!'),
               (4.0, 7.0, 'Leer un mensaje le quita la vista del camino\nunos 5 segundos. Ningún mensaje vale una vida.')],
    },
}

CLIPS = {'start': (start, START_LEN), 'correct': (correct, CORRECT_LEN), 'incorrect': (incorrect, INCORRECT_LEN)}
