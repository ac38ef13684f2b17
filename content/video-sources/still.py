import sys, importlib
sys.path.insert(0, '/tmp/vt')
mod = importlib.import_module(sys.argv[1])
clip = sys.argv[2]
fn, ln = mod.CLIPS[clip]
from PIL import Image
ts = [float(x) for x in sys.argv[3].split(',')]
imgs = [fn(t) for t in ts]
cols = 2
rows = (len(imgs) + 1) // 2
sheet = Image.new('RGB', (640 * cols, 360 * rows), (0, 0, 0))
for i, im in enumerate(imgs):
    sheet.paste(im, ((i % cols) * 640, (i // cols) * 360))
sheet.save(f'/tmp/vt/still_{sys.argv[1]}_{clip}.png')
