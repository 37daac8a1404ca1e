/// Points held one coordinate to an array (x, y and z apart), so that four consecutive points'
/// x, y or z load as one vector. Valid only inside the call that hands it out, as an
/// `UnsafeBufferPointer` is.
struct PointColumns {
    /// The points' x, y and z: each at least `count` rounded up to a multiple of four values,
    /// so that the last four points load whole (values past `count` are finite and no points).
    let x: UnsafePointer<Float>, y: UnsafePointer<Float>, z: UnsafePointer<Float>
    /// How many points there are.
    let count: Int

    /// The x, y and z of points `first` to `first + 3` (`first` a multiple of four below `count`).
    @inline(__always)
    func vectors(at first: Int) -> (x: SIMD4<Float>, y: SIMD4<Float>, z: SIMD4<Float>) {
        (UnsafeRawPointer(x + first).loadUnaligned(as: SIMD4<Float>.self),
         UnsafeRawPointer(y + first).loadUnaligned(as: SIMD4<Float>.self),
         UnsafeRawPointer(z + first).loadUnaligned(as: SIMD4<Float>.self))
    }
}
