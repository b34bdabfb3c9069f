#!/usr/bin/env python3
"""Writes the demo's avatar PNGs into __files/avatars/ (64x64, 8-bit RGB, valid CRCs).

Run from anywhere: python3 Stubs/make-avatars.py
The output is deterministic, so the committed files only change if this script does.
"""
import os
import struct
import zlib

SIZE = 64


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(pixel) -> bytes:
    rows = bytearray()
    for y in range(SIZE):
        rows.append(0)  # filter type: None
        for x in range(SIZE):
            rows.extend(pixel(x, y))
    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0)  # 8-bit truecolour
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def ring(colour, background):
    """A filled disc on a background: enough to tell two avatars apart in a screenshot."""
    def pixel(x, y):
        dx, dy = x - SIZE / 2 + 0.5, y - SIZE / 2 + 0.5
        inside = dx * dx + dy * dy <= (SIZE * 0.4) ** 2
        return colour if inside else background
    return pixel


AVATARS = {
    "2176586.png": ring((0x2F, 0x80, 0xED), (0xF6, 0xF8, 0xFA)),  # shashikant86: blue disc
    "583231.png": ring((0x24, 0x29, 0x2E), (0xFF, 0xFF, 0xFF)),   # octocat: dark disc
    "default.png": ring((0x8C, 0x95, 0x9F), (0xF6, 0xF8, 0xFA)),  # anyone else (the templated fallback): grey disc
}

if __name__ == "__main__":
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__files", "avatars")
    os.makedirs(folder, exist_ok=True)
    for name, pixel in AVATARS.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(png(pixel))
        print("wrote", os.path.join(folder, name))
