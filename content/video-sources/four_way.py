from lib import *

RED, BLUE = (215, 40, 40), (40, 110, 220)
CX, CY = 320, 180
RED_STOP_Y = 256  # red car centre when stopped (front at y=234)
BLUE_STOP_X = 394  # blue car centre when stopped (front at x=372)
TS = 3.2  # both stop at this moment in the start clip


def scene(c):
    # corner trees and houses
    for x, y in ((90, 60), (200, 95), (470, 70), (590, 105), (210, 320), (460, 300), (600, 270)):
        tree(c, x, y, 18)
    house(c, 20, 250, 90, 60, (120, 120, 150))
    house(c, 500, 10, 100, 60, (160, 90, 70))
    # roads
    c.rect(0, 140, W, 220, ROAD)
    c.rect(280, 0, 360, H, ROAD)
    # edge lines
    for y in (142, 218):
        c.line([(0, y), (280, y)], WHITE, 1.5)
        c.line([(360, y), (W, y)], WHITE, 1.5)
    for x in (282, 358):
        c.line([(x, 0), (x, 140)], WHITE, 1.5)
        c.line([(x, 220), (x, H)], WHITE, 1.5)
    # double yellow centre lines
    for d in (-2, 2):
        c.line([(0, CY + d), (268, CY + d)], YELLOW, 1.5)
        c.line([(372, CY + d), (W, CY + d)], YELLOW, 1.5)
        c.line([(CX + d, 0), (CX + d, 128)], YELLOW, 1.5)
        c.line([(CX + d, 232), (CX + d, H)], YELLOW, 1.5)
    # stop lines
    c.rect(322, 228, 358, 232, WHITE)  # northbound
    c.rect(368, 142, 372, 178, WHITE)  # westbound
    c.rect(282, 128, 318, 132, WHITE)  # southbound
    c.rect(268, 182, 272, 218, WHITE)  # eastbound
    stop_sign(c, 378, 242)
    stop_sign(c, 380, 122)
    stop_sign(c, 262, 118)
    stop_sign(c, 260, 238)


def pulse(c, x, y, t):
    u = (t * 1.2) % 1.0
    c.overlay(lambda cc: cc.circle(x, y, 26 + 14 * u, None, outline=(255, 255, 255, int(220 * (1 - u))), width=3))


# ---------------- start -------------------------------------------------------------------
red_in = Motion(0, [(0, 60), (1.6, 60), (TS, 0)])
blue_in = Motion(0, [(0, 110), (2.0, 110), (TS, 0)])
RED_D = red_in.x(TS)
BLUE_D = blue_in.x(TS)


def start(t):
    c = Canvas()
    scene(c)
    ry = RED_STOP_Y + RED_D - red_in.x(t)
    bx = BLUE_STOP_X + BLUE_D - blue_in.x(t)
    car(c, 340, ry, -90, RED, brake=red_in.braking(t))
    car(c, bx, 160, 180, BLUE, brake=blue_in.braking(t))
    if t > TS + 0.2:
        pulse(c, 340, ry, t - TS)
        pulse(c, bx, 160, t - TS)
    return c.frame()


START_LEN = 6.0

# ---------------- correct: blue (on the right) goes first -----------------------------------
blue_go = Motion(0, [(0, 0), (0.6, 0), (1.6, 130), (4, 130)])
red_go = Motion(0, [(0, 0), (2.6, 0), (3.6, 120), (6, 120)])


def correct(t):
    c = Canvas()
    scene(c)
    car(c, BLUE_STOP_X - blue_go.x(t), 160, 180, BLUE, brake=t < 0.6)
    car(c, 340, RED_STOP_Y - red_go.x(t), -90, RED, brake=t < 2.6)
    badge(c, t, 5.0, True)
    return c.frame()


CORRECT_LEN = 6.5

# ---------------- incorrect: both go, near miss --------------------------------------------
# red front goes 234 -> 182 (centre 256 -> 204), blue front 372 -> 330 (centre 394 -> 352), then both stop
red_bad = Motion(0, [(0, 0), (0.3, 0), (1.0, 80), (1.5, 0)])
blue_bad = Motion(0, [(0, 0), (0.3, 0), (1.05, 75), (1.5, 0)])
blue_leave = Motion(0, [(0, 0), (3.6, 0), (4.6, 130), (8, 130)])
red_leave = Motion(0, [(0, 0), (5.2, 0), (6.0, 110), (8, 110)])


def incorrect(t):
    c = Canvas()
    scene(c)
    bx = BLUE_STOP_X - blue_bad.x(t) - blue_leave.x(t)
    ry = RED_STOP_Y - red_bad.x(t) - red_leave.x(t)
    car(c, bx, 160, 180, BLUE, brake=blue_bad.braking(t) and t < 3.6, blink=1.5 < t < 3.6 and int(t * 4) % 2 == 0)
    car(c, 340, ry, -90, RED, brake=red_bad.braking(t) and t < 5.2)
    shake = flash(c, t, 1.42, 345, 179)
    badge(c, t, 5.4, False)
    return c.frame(shake)


INCORRECT_LEN = 7.0

CAPTIONS = {
    'start': {
        'en': [(0, 3.2, 'You are driving the red car.\nYou and a blue car come to a four-way stop.'),
               (3.2, 6.0, 'You both make a full stop at the same time.\nThe blue car is on your right.')],
        'es': [(0, 3.2, 'Maneja el auto rojo.\nUn auto azul y usted llegan a un alto en cuatro direcciones.'),
               (3.2, 6.0, 'Los dos hacen un alto total al mismo tiempo.\nEl auto azul está a su derecha.')],
    },
    'correct': {
        'en': [(0, 2.6, 'You yield to the blue car, because it is on your right.'),
               (2.6, 5.0, 'The blue car goes first. Then it is your turn.'),
               (5.0, 6.5, 'Correct: when two cars stop at the same time,\nthe driver on the left yields to the driver on the right.')],
        'es': [(0, 2.6, 'Le cede el paso al auto azul, porque está a su derecha.'),
               (2.6, 5.0, 'El auto azul pasa primero. Después le toca a usted.'),
               (5.0, 6.5, 'Correcto: cuando dos autos se detienen al mismo tiempo,\nel conductor de la izquierda cede el paso al de la derecha.')],
    },
    'incorrect': {
        'en': [(0, 1.4, 'You pull out at the same time as the blue car.'),
               (1.4, 3.6, 'Both drivers slam on the brakes.\nYou miss each other by inches!'),
               (3.6, 5.4, 'You should have yielded to the blue car.\nYou wait, then go.'),
               (5.4, 7.0, 'When two cars stop at the same time,\nthe driver on the left yields to the driver on the right.')],
        'es': [(0, 1.4, 'Arranca al mismo tiempo que el auto azul.'),
               (1.4, 3.6, 'Los dos conductores frenan de golpe.\n¡Por muy poco no chocan!'),
               (3.6, 5.4, 'Debía cederle el paso al auto azul.\nEspera y después avanza.'),
               (5.4, 7.0, 'Cuando dos autos se detienen al mismo tiempo,\nel conductor de la izquierda cede el paso al de la derecha.')],
    },
}

CLIPS = {'start': (start, START_LEN), 'correct': (correct, CORRECT_LEN), 'incorrect': (incorrect, INCORRECT_LEN)}
