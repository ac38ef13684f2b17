import math
from lib import *

RED = (215, 40, 40)
V = 55.0  # cruising speed, px/s: 1 second of gap = 55 px
LANE_Y = 205
TRUCK_LEN, CAR_LEN = 158, 44


def h(k, m):
    return (k * 7919 + 104729) % 9973 % m


def scene(c, cam):
    c.rect(0, 118, W, 242, (120, 124, 128))  # shoulders
    c.rect(0, 128, W, 232, ROAD)
    c.line([(0, 132), (W, 132)], WHITE, 2)
    c.line([(0, 228), (W, 228)], WHITE, 2)
    k0 = int(math.floor(cam / 50)) - 1
    for k in range(k0, k0 + 16):
        x = k * 50 - cam
        c.line([(x, 180), (x + 24, 180)], WHITE, 2)
    k0 = int(math.floor(cam / 95)) - 1
    for k in range(k0, k0 + 10):
        x = k * 95 + h(k, 40) - cam
        tree(c, x, 45 + h(k, 50), 15 + h(k, 6))
        x2 = k * 95 + 50 + h(k + 3, 40) - cam
        tree(c, x2, 280 + h(k + 5, 50), 15 + h(k + 1, 6))


def bracket(c, x0, x1, y, text):
    if x1 - x0 < 12:
        return
    c.line([(x0 + 3, y), (x1 - 3, y)], WHITE, 2)
    c.poly([(x0 + 2, y), (x0 + 9, y - 4), (x0 + 9, y + 4)], WHITE)
    c.poly([(x1 - 2, y), (x1 - 9, y - 4), (x1 - 9, y + 4)], WHITE)
    label(c, (x0 + x1) / 2, 160, text, 14)


def draw(t, truck_m, car_m, show_gap_until, contact=None, badge_at=None, good=True):
    tf = truck_m.x(t)
    tr = tf - TRUCK_LEN
    cf = car_m.x(t)
    recoil = 0.0
    if contact is not None and t >= contact:
        cf = truck_m.x(contact) - TRUCK_LEN
        recoil = 3 * smooth(contact, contact + 0.25, t)
        cf -= recoil
        tf = truck_m.x(t) + 2 * smooth(contact, contact + 0.2, t)  # the truck gets a small nudge
        tr = tf - TRUCK_LEN
    cam = (cf - CAR_LEN + tf) / 2 - W / 2
    c = Canvas()
    scene(c, cam)
    truck(c, tf - cam, LANE_Y, brake=truck_m.braking(t))
    stopped_after_bump = contact is not None and t >= contact
    car(c, cf - cam - CAR_LEN / 2, LANE_Y, 0, RED, brake=(car_m.braking(t) and t >= show_gap_until) or stopped_after_bump,
        blink=stopped_after_bump and t > contact + 0.8 and int(t * 3) % 2 == 0)
    if t < show_gap_until:
        gap = tr - cf
        bracket(c, cf - cam, tr - cam, LANE_Y, f'{max(1, round(gap / V))} s')
    shake = (0, 0)
    if contact is not None:
        shake = flash(c, t, contact, cf - cam + 2, LANE_Y)
    if badge_at is not None:
        badge(c, t, badge_at, good)
    return c.frame(shake)


# ---------------- start: catching up to a truck -------------------------------------------
START_LEN = 6.0
truck_s = Motion(0, [(0, V)])
C0 = -TRUCK_LEN - 7.2 * V
car_s = Motion(C0, [(0, 1.4 * V)])


def start(t):
    return draw(t, truck_s, car_s, 99)


T1 = truck_s.x(START_LEN)
C1 = car_s.x(START_LEN)

# ---------------- correct: match speed at a 4-second gap; the truck brakes; stop safely -------
CORRECT_LEN = 7.0
truck_c = Motion(T1, [(0, V), (2.8, V), (4.2, 0)])
car_c = Motion(C1, [(0, 1.4 * V), (0.6, 1.4 * V), (2.2, V), (3.4, V), (5.0, 0)])


def correct(t):
    return draw(t, truck_c, car_c, 2.8, badge_at=5.4, good=True)


# ---------------- incorrect: speed up to a 1-second gap; the truck brakes; bump ---------------
INCORRECT_LEN = 7.5
truck_i = Motion(T1, [(0, V), (3.8, V), (5.2, 0)])
car_i = Motion(C1, [(0, 1.4 * V), (0.5, 2.2 * V), (2.93, 2.2 * V), (3.73, V), (4.8, V), (6.4, 0)])


def _contact():
    t = 3.8
    while t < INCORRECT_LEN:
        if car_i.x(t) >= truck_i.x(t) - TRUCK_LEN:
            return t
        t += 0.002
    raise SystemExit('no contact')


CONTACT = _contact()


def incorrect(t):
    return draw(t, truck_i, car_i, 3.8, contact=CONTACT, badge_at=CONTACT + 0.6, good=False)


CAPTIONS = {
    'start': {
        'en': [(0, 3.0, 'You are driving the red car on the highway.'),
               (3.0, 6.0, 'You are catching up to a large truck.\nYou cannot see the road ahead of it.')],
        'es': [(0, 3.0, 'Maneja el auto rojo en la autopista.'),
               (3.0, 6.0, 'Se acerca a un camión grande.\nNo puede ver el camino delante de él.')],
    },
    'correct': {
        'en': [(0, 2.8, 'You ease off the gas and stay about\nfour seconds behind the truck.'),
               (2.8, 5.0, 'Suddenly, the truck brakes hard.'),
               (5.0, 7.0, 'Correct: with a four-second gap,\nyou have time and room to stop safely.')],
        'es': [(0, 2.8, 'Suelta el acelerador y se mantiene\nunos cuatro segundos detrás del camión.'),
               (2.8, 5.0, 'De repente, el camión frena con fuerza.'),
               (5.0, 7.0, 'Correcto: con un espacio de cuatro segundos,\nusted tiene tiempo y espacio para detenerse sin peligro.')],
    },
    'incorrect': {
        'en': [(0, 3.8, 'You speed up and follow only about\none second behind the truck.'),
               (3.8, round(CONTACT, 2), 'Suddenly, the truck brakes hard.\nYou react too late.'),
               (round(CONTACT, 2), INCORRECT_LEN, 'You bump into the back of the truck.\nA gap of at least four seconds would have let you stop.')],
        'es': [(0, 3.8, 'Acelera y va solo a un segundo\nmás o menos detrás del camión.'),
               (3.8, round(CONTACT, 2), 'De repente, el camión frena con fuerza.\nReacciona demasiado tarde.'),
               (round(CONTACT, 2), INCORRECT_LEN, 'Choca contra la parte de atrás del camión.\nCon un espacio de al menos cuatro segundos habría podido detenerse.')],
    },
}

CLIPS = {'start': (start, START_LEN), 'correct': (correct, CORRECT_LEN), 'incorrect': (incorrect, INCORRECT_LEN)}
