import math
from lib import *

RED, BLUE = (215, 40, 40), (40, 110, 220)
LANE_Y, TOP_Y = 203, 157
BUS_STOP_FRONT = 470
CROSS_X = 505
CAR_LEN = 44


def scene(c):
    house(c, 440, 8, 120, 64, (150, 80, 70))
    house(c, 150, 14, 100, 60, (110, 120, 150))
    c.rect(CROSS_X - 12, 72, CROSS_X + 12, 132, (200, 196, 184))  # front walk to the house
    for x, y in ((60, 50), (300, 60), (380, 30), (610, 60), (60, 300), (180, 320), (330, 290), (560, 320)):
        tree(c, x, y, 17)
    c.rect(0, 130, W, 230, (120, 124, 128))  # gravel shoulders
    c.rect(0, 134, W, 226, ROAD)
    c.line([(0, 137), (W, 137)], WHITE, 1.5)
    c.line([(0, 223), (W, 223)], WHITE, 1.5)
    for x in range(-10, W, 44):
        c.line([(x, 180), (x + 22, 180)], YELLOW, 2)
    # bus-stop sign
    c.rect(400, 244, 404, 262, (90, 90, 90))
    c.rect(392, 238, 412, 248, (250, 190, 0), outline=(120, 90, 0), width=1)


def path_pos(pts, speed, t):
    """Position along a polyline at `speed`, t seconds after it starts (clamped at the ends)."""
    if t <= 0:
        return pts[0], 0.0
    d = speed * t
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        seg = math.hypot(x1 - x0, y1 - y0)
        if d <= seg:
            u = d / seg
            return (x0 + (x1 - x0) * u, y0 + (y1 - y0) * u), math.degrees(math.atan2(y1 - y0, x1 - x0))
        d -= seg
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    return pts[-1], math.degrees(math.atan2(y1 - y0, x1 - x0))


KID_PATH = [(442, 234), (CROSS_X, 240), (CROSS_X, 96)]


def draw_kid(c, t0, t, speed=55, freeze=None):
    """The child leaves the bus door at t0, walks ahead of the bus and crosses to the house.
    freeze=(t_from, t_to): the child stops there (startled) and walks on after."""
    if t < t0:
        return
    el = t - t0
    if freeze is not None:
        a, b = freeze
        if t > a:
            el = (a - t0) + max(0.0, t - b)
    (x, y), ang = path_pos(KID_PATH, speed, el)
    moving = el * speed < 63 + 144 and not (freeze and freeze[0] < t < freeze[1])
    child(c, x, y, ang, shirt=(80, 200, 230), step=el * 1.6 if moving else 0)


def lights_on(t):
    return int(t * 4) % 2 == 0


# ---------------- start -------------------------------------------------------------------------
START_LEN = 6.0
bus_s = Motion(BUS_STOP_FRONT - 168, [(0, 70), (1.5, 70), (3.3, 0)])
car_s = Motion(-10, [(0, 60), (1.5, 60), (6.0, 18)])


def start(t):
    c = Canvas()
    scene(c)
    lights = 'amber' if 0.5 < t < 3.3 else ('red' if t >= 3.3 else None)
    school_bus(c, bus_s.x(t), LANE_Y, lights, lights_on(t), arm=smooth(3.4, 3.9, t), door=t > 3.6)
    cf = car_s.x(t)
    car(c, cf - CAR_LEN / 2, LANE_Y, 0, RED, brake=t > 1.5)
    return c.frame()


C1 = car_s.x(START_LEN)

# ---------------- correct: stop and wait ---------------------------------------------------------
CORRECT_LEN = 7.0
car_c = Motion(C1, [(0, 18), (1.0, 0), (5.6, 0), (6.4, 60)])
bus_c = Motion(BUS_STOP_FRONT, [(0, 0), (5.0, 0), (6.0, 60)])
onc_c = Motion(0, [(0, 80), (1.0, 80), (2.2, 0), (4.8, 0), (5.6, 70)])  # oncoming car, moving left


def correct(t):
    c = Canvas()
    scene(c)
    red_on = t < 4.4
    school_bus(c, bus_c.x(t), LANE_Y, 'red' if red_on else None, lights_on(t),
               arm=1 - smooth(4.4, 4.8, t), door=t < 4.6)
    draw_kid(c, 0.3, t)
    car(c, 673 - onc_c.x(t) - CAR_LEN / 2 + CAR_LEN, TOP_Y, 180, BLUE, brake=1.0 < t < 4.8)
    car(c, car_c.x(t) - CAR_LEN / 2, LANE_Y, 0, RED, brake=t < 5.6)
    badge(c, t, 5.4, True)
    return c.frame()


# ---------------- incorrect: pass the bus, near miss with the crossing child ---------------------------
INCORRECT_LEN = 7.0
T_BRAKE = 2.77
car_i = Motion(C1, [(0, 18), (1.2, 90), (T_BRAKE, 90), (T_BRAKE + 0.5, 0)])
KID_FREEZE = (2.69, 3.9)


def lane_y(front_x):
    return LANE_Y - (LANE_Y - TOP_Y) * smooth(272, 352, front_x)


def incorrect(t):
    c = Canvas()
    scene(c)
    school_bus(c, BUS_STOP_FRONT, LANE_Y, 'red', lights_on(t), arm=1.0, door=True)
    draw_kid(c, 0.3, t, freeze=KID_FREEZE)
    fx = car_i.x(t)
    y = lane_y(fx)
    dx = max(1e-3, car_i.x(t + 0.02) - fx)
    ang = math.degrees(math.atan2(lane_y(fx + dx) - y, dx)) if car_i.v(t) > 1 else 0.0
    a = math.radians(ang)
    car(c, fx - CAR_LEN / 2 * math.cos(a), y - CAR_LEN / 2 * math.sin(a), ang, RED,
        brake=t > T_BRAKE or t < 0.05)
    shake = flash(c, t, T_BRAKE + 0.4, fx + 2, TOP_Y - 28, size=0.7)
    badge(c, t, 4.6, False)
    return c.frame(shake)


CAPTIONS = {
    'start': {
        'en': [(0, 3.3, 'You are driving the red car behind a school bus\non a two-lane road. Its yellow lights flash.'),
               (3.3, 6.0, 'The bus stops. Its red lights flash\nand its stop arm swings out. The other lane is clear.')],
        'es': [(0, 3.3, 'Maneja el auto rojo detrás de un autobús escolar\nen un camino de dos carriles. Sus luces amarillas parpadean.'),
               (3.3, 6.0, 'El autobús se detiene. Sus luces rojas parpadean\ny extiende su brazo de alto. El otro carril está libre.')],
    },
    'correct': {
        'en': [(0, 2.2, 'You stop well behind the bus.\nThe car coming the other way stops too.'),
               (2.2, 4.4, 'A child gets off the bus\nand crosses the road in front of it.'),
               (4.4, 5.4, 'The red lights go off and the stop arm folds back.'),
               (5.4, 7.0, 'Correct: stay stopped until the red lights stop flashing\nand the stop arm is pulled back.')],
        'es': [(0, 2.2, 'Se detiene bastante atrás del autobús.\nEl auto que viene de frente también se detiene.'),
               (2.2, 4.4, 'Un niño baja del autobús\ny cruza el camino por delante de él.'),
               (4.4, 5.4, 'Las luces rojas se apagan y el brazo de alto se retrae.'),
               (5.4, 7.0, 'Correcto: permanezca detenido hasta que las luces rojas\ndejen de parpadear y el brazo de alto se retraiga.')],
    },
    'incorrect': {
        'en': [(0, 2.6, 'You pull into the other lane to pass the bus.'),
               (2.6, 4.6, 'A child steps out from in front of the bus.\nYou slam on the brakes and stop just in time!'),
               (4.6, 7.0, 'Never pass a school bus with its red lights flashing.\nTraffic behind the bus must stop, in every state.')],
        'es': [(0, 2.6, 'Se pasa al otro carril para rebasar el autobús.'),
               (2.6, 4.6, 'Un niño sale por delante del autobús.\n¡Frena de golpe y se detiene justo a tiempo!'),
               (4.6, 7.0, 'Nunca rebase un autobús escolar con las luces rojas\nintermitentes. El tráfico detrás del autobús\ndebe detenerse, en todos los estados.')],
    },
}

CLIPS = {'start': (start, START_LEN), 'correct': (correct, CORRECT_LEN), 'incorrect': (incorrect, INCORRECT_LEN)}
