#!/usr/bin/env python3
# Hand-edit one type reference of a raw BTF file (little endian), as a hostile or broken
# producer could write it, to test the BTF loader's handling of type cycles.
#   btf_patch.py IN OUT SPEC=TARGET...
# SPEC names a reference as tests/tools/dwarf_patch.c does: STRUCT.MEMBER is that member (its
# type field), each '>' after it follows the reference once (to a typedef, qualifier, pointer,
# array: their `type`, an array's element type).  TARGET names a type: STRUCT, STRUCT.MEMBER>...,
# or '.' for the type SPEC names.  SPEC's reference is set to TARGET's id.
# Prints "SPEC: -> type ID".  Exit 1 when a name is not found, 2 on bad use.
import struct, sys

KIND_INT, KIND_PTR, KIND_ARRAY, KIND_STRUCT, KIND_UNION, KIND_ENUM, KIND_FWD = 1, 2, 3, 4, 5, 6, 7
KIND_FUNC_PROTO, KIND_VAR, KIND_DATASEC, KIND_DECL_TAG, KIND_ENUM64 = 13, 14, 15, 17, 19


def extra(kind, vlen):
    """bytes after the 12-byte struct btf_type"""
    return {KIND_INT: 4, KIND_ARRAY: 12, KIND_STRUCT: 12 * vlen, KIND_UNION: 12 * vlen,
            KIND_ENUM: 8 * vlen, KIND_FUNC_PROTO: 8 * vlen, KIND_VAR: 4,
            KIND_DATASEC: 12 * vlen, KIND_DECL_TAG: 4, KIND_ENUM64: 12 * vlen}.get(kind, 0)


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: btf_patch.py IN OUT SPEC=TARGET...")
    b = bytearray(open(sys.argv[1], "rb").read())
    magic, _, _, hdr_len, type_off, type_len, str_off, _ = struct.unpack_from("<HBBIIIII", b)
    if magic != 0xEB9F:
        sys.exit("not little-endian raw BTF")
    types, strs = hdr_len + type_off, hdr_len + str_off
    pos, end, at = types, types + type_len, [None]  # at[id] = offset of struct btf_type
    while pos < end:
        info = struct.unpack_from("<I", b, pos + 4)[0]
        at.append(pos)
        pos += 12 + extra((info >> 24) & 0x1F, info & 0xFFFF)

    def name(off):
        e = b.index(0, strs + off)
        return b[strs + off:e].decode()

    def ref_pos(tid):
        """where the reference of type tid is stored"""
        p = at[tid]
        kind = (struct.unpack_from("<I", b, p + 4)[0] >> 24) & 0x1F
        return p + 12 if kind == KIND_ARRAY else p + 8

    def resolve(spec):
        """(id, pos): the type SPEC names and where its outgoing reference is stored"""
        head, sep, arrows = spec.partition(">")
        sname, _, mname = head.partition(".")
        for tid in range(1, len(at)):
            p = at[tid]
            name_off, info = struct.unpack_from("<II", b, p)
            if (info >> 24) & 0x1F not in (KIND_STRUCT, KIND_UNION) or name(name_off) != sname:
                continue
            if not mname:
                return tid, None
            for i in range(info & 0xFFFF):
                mn = struct.unpack_from("<I", b, p + 12 + 12 * i)[0]
                if name(mn) == mname:
                    cur, pos = None, p + 12 + 12 * i + 4   # the member's type field
                    break
            else:
                return None, None
            for _ in sep + arrows:
                cur = struct.unpack_from("<I", b, pos)[0]
                pos = ref_pos(cur)
            return cur, pos
        return None, None

    for arg in sys.argv[3:]:
        spec, _, target = arg.partition("=")
        sid, pos = resolve(spec)
        tid = sid if target == "." else resolve(target)[0]
        if pos is None or tid is None:
            print("btf_patch: %s: no such type reference" % arg, file=sys.stderr)
            sys.exit(1)
        struct.pack_into("<I", b, pos, tid)
        print("%s: -> type %d" % (arg, tid))
    open(sys.argv[2], "wb").write(b)


main()
