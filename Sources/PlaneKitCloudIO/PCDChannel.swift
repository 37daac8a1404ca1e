import PlaneKitInput

/// Where one PCD field's values lie in a buffer of decoded records, and the loops that gather
/// coordinates and colours out of it.
///
/// `binary` data stores whole points one after another (a field's value every `pointSize`
/// bytes); decompressed `binary_compressed` data stores all points' values of one field, then
/// the next field. Both are the same thing to a gather loop: point `i`'s value sits at
/// `offset + i × stride`.
struct PCDChannel: Equatable {
    /// Byte offset of point 0's value.
    var offset: Int
    /// Bytes from one point's value to the next point's.
    var stride: Int
    /// Bytes per value: 4 or 8 for coordinates, 4 for packed colours.
    var size: Int

    /// How the records of a data block are arranged.
    enum Layout {
        /// Point records one after another, starting at byte `start` (DATA binary).
        case pointMajor(start: Int)
        /// Each field's values for every point, field after field, starting at byte 0
        /// (decompressed binary_compressed); `skipsPadding` when `_` fields are not stored.
        case fieldMajor(skipsPadding: Bool)
    }

    /// `true` when every point's value lies inside a buffer of `byteCount` bytes.
    func fits(count: Int, in byteCount: Int) -> Bool {
        guard count > 0 else { return true }
        let (span, o1) = (count - 1).multipliedReportingOverflow(by: stride)
        let (end, o2) = span.addingReportingOverflow(offset + size)
        return offset >= 0 && !o1 && !o2 && end <= byteCount
    }

    /// The coordinates of `count` points read from the `x`, `y` and `z` channels of `bytes`
    /// (little-endian float32 or float64; float64 is rounded to float once). The caller has
    /// checked that all three channels ``fits(count:in:)``.
    static func gatherPoints(_ bytes: UnsafeRawBufferPointer, x: PCDChannel, y: PCDChannel, z: PCDChannel,
                             count: Int) -> ContiguousArray<SIMD3<Float>> {
        ContiguousArray(unsafeUninitializedCapacity: count) { out, initialized in
            guard let base = bytes.baseAddress, let target = out.baseAddress else {
                initialized = 0
                return
            }
            if x.size == 4, y.size == 4, z.size == 4 {
                // The common case, every coordinate a float32: no per-point size test.
                for i in 0..<count {
                    (target + i).initialize(to: SIMD3(float32(base, x.offset &+ i &* x.stride),
                                                      float32(base, y.offset &+ i &* y.stride),
                                                      float32(base, z.offset &+ i &* z.stride)))
                }
            } else {
                for i in 0..<count {
                    (target + i).initialize(to: SIMD3(x.coordinate(base, i), y.coordinate(base, i), z.coordinate(base, i)))
                }
            }
            initialized = count
        }
    }

    /// The RGB colours of `count` points from a channel of packed 32-bit colours (PCL's
    /// `0xAARRGGBB`, whether the file types the field F, U or I). The caller has checked that
    /// the channel ``fits(count:in:)``.
    static func gatherColors(_ bytes: UnsafeRawBufferPointer, _ channel: PCDChannel,
                             count: Int) -> ContiguousArray<SIMD3<UInt8>> {
        ContiguousArray(unsafeUninitializedCapacity: count) { out, initialized in
            guard let base = bytes.baseAddress, let target = out.baseAddress else {
                initialized = 0
                return
            }
            for i in 0..<count {
                let packed = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: channel.offset &+ i &* channel.stride,
                                                                     as: UInt32.self))
                (target + i).initialize(to: unpackColor(packed))
            }
            initialized = count
        }
    }

    /// The RGB bytes of PCL's packed `0xAARRGGBB` colour word.
    @inline(__always) static func unpackColor(_ packed: UInt32) -> SIMD3<UInt8> {
        SIMD3(UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 8), UInt8(truncatingIfNeeded: packed))
    }

    /// Point `i`'s coordinate in this channel, float32 or float64 (rounded to float).
    @inline(__always) private func coordinate(_ base: UnsafeRawPointer, _ i: Int) -> Float {
        let at = offset &+ i &* stride
        if size == 8 {
            return Float(Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt64.self))))
        }
        return PCDChannel.float32(base, at)
    }

    /// The little-endian float32 at byte `at` (any alignment), NaN payloads kept bit for bit.
    @inline(__always) private static func float32(_ base: UnsafeRawPointer, _ at: Int) -> Float {
        Float(bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
    }
}

extension PCDHeader {
    /// Where field `index`'s first value lies in data arranged as `layout`. For
    /// ``PCDChannel/Layout/fieldMajor(skipsPadding:)`` with padding skipped, `index` must not be
    /// a padding field itself.
    func channel(ofField index: Int, in layout: PCDChannel.Layout) -> PCDChannel {
        let field = fields[index]
        let valueBytes = field.size * field.count
        switch layout {
        case .pointMajor(let start):
            return PCDChannel(offset: start + offset(ofField: index), stride: pointSize, size: field.size)
        case .fieldMajor(let skipsPadding):
            let before = fields[..<index].reduce(0) { sum, f in
                skipsPadding && f.name == PCDHeader.paddingName ? sum : sum + f.size * f.count
            }
            return PCDChannel(offset: before * points, stride: valueBytes, size: field.size)
        }
    }
}
