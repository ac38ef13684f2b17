from lib import *


def sample(t):
    c = Canvas()
    for x, y in ((80, 70), (260, 50), (450, 80), (590, 40), (120, 300), (330, 310), (520, 290)):
        tree(c, x, y, 17)
    c.rect(0, 134, W, 226, ROAD)
    c.line([(0, 137), (W, 137)], WHITE, 1.5)
    c.line([(0, 223), (W, 223)], WHITE, 1.5)
    for x in range(-10, W, 44):
        c.line([(x, 180), (x + 22, 180)], YELLOW, 2)
    car(c, -30 + (W + 60) * t / 2.5, 203, 0, (40, 110, 220))
    return c.frame()


CLIPS = {'sample': (sample, 2.5)}
