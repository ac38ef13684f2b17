import os, sys, importlib
sys.path.insert(0, '/tmp/vt')
from lib import render, vtt

OUT = '/work/main/content/videos'
VIDEOS = [('four-way-stop', 'four_way'), ('following-distance', 'following'),
          ('phone-and-ball', 'distraction'), ('school-bus-stop', 'school_bus')]
only = sys.argv[1:]
for key, modname in VIDEOS:
    if only and key not in only:
        continue
    mod = importlib.import_module(modname)
    d = os.path.join(OUT, key)
    os.makedirs(d, exist_ok=True)
    for clip, (fn, length) in mod.CLIPS.items():
        render(os.path.join(d, f'{clip}.mp4'), length, fn)
        for lang in ('en', 'es'):
            cues = mod.CAPTIONS[clip][lang]
            assert abs(cues[-1][1] - length) < 1e-6, (key, clip, lang)
            vtt(os.path.join(d, f'{clip}.{lang}.vtt'), cues)
        print(key, clip, os.path.getsize(os.path.join(d, f'{clip}.mp4')), flush=True)
if not only or 'sample' in only:
    s = importlib.import_module('sample')
    os.makedirs(os.path.join(OUT, 'sample'), exist_ok=True)
    fn, length = s.CLIPS['sample']
    render(os.path.join(OUT, 'sample', 'sample.mp4'), length, fn)
    print('sample', os.path.getsize(os.path.join(OUT, 'sample', 'sample.mp4')))
