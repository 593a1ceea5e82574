#!/usr/bin/env python3
"""Recomputes the ICRC and FCS of every frame of a pcap file with zlib, independently of
rocelab's C++ (used to derive the known answers in tests/pcap_test.cc).

  tests/data/roce_icrc.py FILE.pcap      prints per frame: length, ICRC, FCS (as on the wire,
                                         hex) and whether the file's bytes match them

ICRC (InfiniBand Annex A17, RoCEv2 over IPv4): CRC-32 over 8 bytes of 0xff (the masked LRH), then
the IPv4 packet from its header up to the ICRC, with the TOS byte, TTL, header checksum, UDP
checksum and the BTH's FECN/BECN/reserved byte set to all ones. Both CRCs go on the wire least
significant byte first.
"""
import struct
import sys
import zlib


def frames(path):
    data = open(path, "rb").read()
    magic, = struct.unpack_from("<I", data, 0)
    assert magic in (0xA1B2C3D4, 0xA1B23C4D), hex(magic)
    off = 24
    while off < len(data):
        _, _, caplen, length = struct.unpack_from("<IIII", data, off)
        yield data[off + 16:off + 16 + caplen], length
        off += 16 + caplen


def icrc(ip_packet_without_icrc):
    b = bytearray(ip_packet_without_icrc)
    b[1] = 0xFF                     # TOS: DSCP and ECN
    b[8] = 0xFF                     # TTL
    b[10:12] = b"\xff\xff"          # IPv4 header checksum
    b[26:28] = b"\xff\xff"          # UDP checksum
    b[32] = 0xFF                    # BTH: FECN, BECN, resv6
    return struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(b)))


def main():
    for i, (f, length) in enumerate(frames(sys.argv[1]), 1):
        if len(f) != length:
            print(i, length, "truncated")
            continue
        fcs = struct.pack("<I", zlib.crc32(f[:-4]))
        line = [str(i), str(length)]
        if f[12:14] == b"\x08\x00":
            ip_len, = struct.unpack_from(">H", f, 16)
            ip = f[14:14 + ip_len]
            want = icrc(ip[:-4])
            line += ["icrc", want.hex(), "ok" if want == ip[-4:] else "BAD"]
        line += ["fcs", fcs.hex(), "ok" if fcs == f[-4:] else "BAD"]
        print(" ".join(line))


if __name__ == "__main__":
    main()
