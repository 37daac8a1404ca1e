/// Eight `Float` lanes: the sensor pass works on eight pixels of a row at once. On baseline
/// x86-64 (SSE2) each operation is two 4-lane instructions; there is no scalar fallback per lane.
typealias FloatLanes = SIMD8<Float>
/// Eight `Int32` lanes (step counts, surface indices, masks).
typealias IntLanes = SIMD8<Int32>
/// A lane mask from comparing ``FloatLanes`` or ``IntLanes``.
typealias LaneMask = SIMDMask<SIMD8<Int32>>

extension UnsafePointer where Pointee == Float {
    /// Eight consecutive values from `self + offset` (any alignment).
    @inline(__always)
    func lanes(at offset: Int) -> FloatLanes {
        UnsafeRawPointer(self + offset).loadUnaligned(as: FloatLanes.self)
    }
}

extension UnsafePointer where Pointee == Int32 {
    /// Eight consecutive values from `self + offset` (any alignment).
    @inline(__always)
    func lanes(at offset: Int) -> IntLanes {
        UnsafeRawPointer(self + offset).loadUnaligned(as: IntLanes.self)
    }
}

extension UnsafeMutablePointer {
    /// Stores eight lanes at `self + offset` (any alignment); `Lanes` must hold eight `Pointee`s.
    @inline(__always)
    func store<Lanes: SIMD>(_ lanes: Lanes, at offset: Int) {
        UnsafeMutableRawPointer(self + offset).storeBytes(of: lanes, as: Lanes.self)
    }
}

extension SIMD8 where Scalar == Float {
    /// `|x|` per lane, by clearing the sign bit (a `Float.magnitude` per lane would not vectorise).
    @inline(__always)
    var laneMagnitude: FloatLanes {
        FloatLanes(bitPattern: IntLanes(bitPattern: self) & 0x7FFF_FFFF)
    }

    /// Each lane rounded to the nearest whole number (ties to even) as an `Int32`, for lanes
    /// within ±2²²: adding 1.5·2²³ leaves the rounded value in the low mantissa bits, so this is
    /// one addition and one integer subtraction, IEEE-exact on every machine, where a float to
    /// int conversion per lane would trap-check and not vectorise. Lanes outside the range give
    /// unspecified values; callers clamp or mask them.
    @inline(__always)
    var roundedToInt: IntLanes {
        IntLanes(bitPattern: self + 0x1.8p23) &- 0x4B40_0000
    }

    /// Reinterprets the bits of `bits`.
    @inline(__always)
    init(bitPattern bits: IntLanes) {
        self = unsafeBitCast(bits, to: FloatLanes.self)
    }
}

extension SIMD8 where Scalar == Int32 {
    /// Reinterprets the bits of `value`.
    @inline(__always)
    init(bitPattern value: FloatLanes) {
        self = unsafeBitCast(value, to: IntLanes.self)
    }
}
