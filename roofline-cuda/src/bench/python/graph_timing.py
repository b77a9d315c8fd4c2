"""The timing every PyTorch peer here shares with roofline's harness: fn(i) launched `launches` times into one CUDA
graph (i cycling over `sets` rotated inputs, so that they exceed the L2), 10 warm-ups, then the median of 50 replays,
each timed with CUDA events, per launch in microseconds."""
import statistics

import torch


def ints(text):
    return [int(x) for x in text.split(",")]


def time_us(fn, sets, launches=20, warmup=10, samples=50):
    for i in range(warmup):
        fn(i % sets)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for i in range(launches):
            fn(i % sets)
    g.replay()
    torch.cuda.synchronize()
    out = []
    for _ in range(samples):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        g.replay()
        end.record()
        end.synchronize()
        out.append(start.elapsed_time(end) * 1000 / launches)
    return statistics.median(out)
