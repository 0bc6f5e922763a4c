#!/usr/bin/python3
"""An independent reader of TensorBoard event files, for tests: pure Python (struct, its own
CRC-32C table, a minimal protobuf decoder), sharing no code with Tessera's C++ reader and writer.

    tfevents_reader.py DIR   prints one JSON object: {"files": [{"path": <relative to DIR>,
                             "events": [{"wall_time", "step", "file_version"?, "values":
                             {tag: simple_value}}]}]} for every events.out.tfevents.* file
                             under DIR, sorted by path.

Strict: a CRC that does not match, a record cut short, or a message it cannot decode exits 1
with the reason on stderr. The format: TensorFlow's "TFRecord format details" (length uint64
LE, masked CRC-32C of it uint32 LE, data, masked CRC-32C of the data uint32 LE) and
tensorflow/core/util/event.proto, framework/summary.proto (Event.wall_time = 1 double,
step = 2 int64, file_version = 3 string, summary = 5; Summary.value = 1; Value.tag = 1,
simple_value = 2 float).
"""

import json
import os
import struct
import sys


def crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            if c & 1:
                c = (c >> 1) ^ 0x82F63B78
            else:
                c >>= 1
        table.append(c)
    return table


TABLE = crc32c_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def masked(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


class Bad(Exception):
    pass


def varint(buf, pos):
    shift = 0
    result = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise Bad("varint runs past its message")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, pos


def fields(buf):
    """(number, wire type, value) of each field of a message."""
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            length, pos = varint(buf, pos)
            value, pos = buf[pos:pos + length], pos + length
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise Bad("wire type %d" % wire)
        if pos > len(buf):
            raise Bad("field %d runs past its message" % number)
        yield number, wire, value


def decode_event(data):
    event = {"wall_time": 0.0, "step": 0, "values": {}}
    for number, wire, value in fields(data):
        if number == 1 and wire == 1:
            event["wall_time"] = struct.unpack("<d", value)[0]
        elif number == 2 and wire == 0:
            event["step"] = value - (1 << 64) if value >= 1 << 63 else value
        elif number == 3 and wire == 2:
            event["file_version"] = value.decode("utf-8")
        elif number == 5 and wire == 2:
            for vnum, vwire, vmsg in fields(value):
                if vnum != 1 or vwire != 2:
                    continue
                tag, simple = None, None
                for f, w, v in fields(vmsg):
                    if f == 1 and w == 2:
                        tag = v.decode("utf-8")
                    elif f == 2 and w == 5:
                        simple = struct.unpack("<f", v)[0]
                if tag is not None and simple is not None:
                    event["values"][tag] = simple
    return event


def read_file(path):
    with open(path, "rb") as f:
        buf = f.read()
    events = []
    pos = 0
    while pos < len(buf):
        if pos + 12 > len(buf):
            raise Bad("%s: record header cut at byte %d" % (path, pos))
        header = buf[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (length_crc,) = struct.unpack("<I", buf[pos + 8:pos + 12])
        if length_crc != masked(header):
            raise Bad("%s: length CRC mismatch at byte %d" % (path, pos))
        end = pos + 12 + length + 4
        if end > len(buf):
            raise Bad("%s: record cut at byte %d" % (path, pos))
        data = buf[pos + 12:pos + 12 + length]
        (data_crc,) = struct.unpack("<I", buf[end - 4:end])
        if data_crc != masked(data):
            raise Bad("%s: data CRC mismatch at byte %d" % (path, pos))
        events.append(decode_event(data))
        pos = end
    return events


def main():
    if len(sys.argv) != 2:
        print("usage: tfevents_reader.py DIR", file=sys.stderr)
        return 2
    root = sys.argv[1]
    files = []
    for folder, _, names in os.walk(root):
        for name in names:
            if name.startswith("events.out.tfevents."):
                path = os.path.join(folder, name)
                files.append(path)
    out = {"files": []}
    try:
        for path in sorted(files):
            out["files"].append({"path": os.path.relpath(path, root), "events": read_file(path)})
    except (Bad, UnicodeDecodeError, struct.error) as e:
        print("tfevents_reader: %s" % e, file=sys.stderr)
        return 1
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
