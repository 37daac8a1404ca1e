extension SyntheticFrame {
    /// The frame as a 16-bit depth image in millimetres, row-major: each reading's depth (z)
    /// rounded to the nearest millimetre, and `invalidValue` where there is none: 0 as most
    /// sensors write it, or 65535 as some RealSense tools do (readings then stop at 65534, so
    /// that no depth is mistaken for a hole).
    public func depthMillimetres(invalidValue: UInt16 = 0) -> ContiguousArray<UInt16> {
        let largest = invalidValue == .max ? Int(UInt16.max) - 1 : Int(UInt16.max)
        return ContiguousArray(cloud.points.map { p -> UInt16 in
            p.isFinite && p.z > 0 ? UInt16(clamping: min(Int((p.z * 1000).rounded()), largest)) : invalidValue
        })
    }
}
