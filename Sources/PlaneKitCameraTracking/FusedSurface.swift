import PlaneKitGeometry

/// The surface seen so far, fused over the tracked frames: surfels indexed by cubic voxels of
/// the world, each the noise-weighted mean of the measured points and normals that joined it (a
/// point joins the surfel of its voxel, else the nearest along its ray within 2σ of depth noise,
/// else starts one). What a frame is registered against (frame to model): rendered at the predicted pose
/// it is a view of the world with the noise of many frames averaged out, and a place seen again
/// after a while is the place as first mapped, not as the latest keyframe drifted to it.
///
/// Weights saturate at ``maximumWeight`` (older evidence then fades as new arrives), so a
/// surface that moved, or a map that drifted, is followed within a few dozen frames.
/// Lookups go through an open-addressing voxel hash; surfels are plain structs in contiguous
/// arrays, so integrating and rendering allocate nothing per point.
struct FusedSurface: Sendable {
    /// Side of a voxel (m).
    let voxelSize: Float
    /// The weight at which a surfel stops gaining and starts to fade.
    let maximumWeight: Float
    /// The most surfels kept (memory: 36 bytes each plus the hash).
    let capacity: Int

    /// The surfels' weighted mean world positions…
    private var positions = ContiguousArray<SIMD3<Float>>()
    /// …and of their world unit normals (facing the cameras that saw them).
    private var normalSums = ContiguousArray<SIMD3<Float>>()
    /// The surfels' total weights.
    private var weights = ContiguousArray<Float>()
    /// Hash slots: a surfel's index, or −1 for an empty slot.
    private var slots = ContiguousArray<Int32>()
    /// The packed voxel key of each slot's surfel.
    private var slotKeys = ContiguousArray<Int64>()

    /// An empty model of `voxelSize` voxels.
    init(voxelSize: Float = 0.02, maximumWeight: Float = 64, capacity: Int = 2_000_000) {
        self.voxelSize = voxelSize
        self.maximumWeight = maximumWeight
        self.capacity = capacity
    }

    /// How many surfels the model holds.
    var count: Int { weights.count }

    /// Forgets everything.
    mutating func removeAll() {
        positions.removeAll(keepingCapacity: true)
        normalSums.removeAll(keepingCapacity: true)
        weights.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        slotKeys.removeAll(keepingCapacity: true)
    }

    /// Adds a frame's surface: `view`'s points and normals (camera coordinates) taken at `pose`
    /// (world from camera). Each point weighs `(σ(1 m) / σ(z))²` for the depth noise σ(z) =
    /// `noiseA + noiseB·z²`, so near, precise readings dominate far, noisy ones; points farther
    /// than `maximumDepth` are left out.
    mutating func integrate(_ view: DepthKeyframe, pose: Transform, noiseA: Float, noiseB: Float, maximumDepth: Float = 4) {
        if slots.isEmpty { resize(to: 1 << 16) }
        let (c0, c1, c2) = pose.rotation.columns
        let t = pose.translation
        let reference = (noiseA + noiseB) * (noiseA + noiseB)
        let inverseSize = 1 / voxelSize
        view.withSurface { vertices, normals in
            for i in vertices.indices {
                let p = vertices[i]
                guard p.z > 0, p.z <= maximumDepth else { continue }
                let n = normals[i]
                let world = c0 * p.x + c1 * p.y + c2 * p.z + t
                let worldNormal = c0 * n.x + c1 * n.y + c2 * n.z
                let sigma = noiseA + noiseB * p.z * p.z
                let weight = reference / (sigma * sigma)
                // A noisy reading lands a few voxels in front of or behind the surface it
                // measured: it joins the surfel nearest along its ray within 2σ, so that the
                // surface stays one layer thick instead of a shell as thick as the noise.
                let ray = (world - t) * (1 / p.z)
                let reach = min(3, Int(2 * sigma * inverseSize))
                var found: Int?
                if reach > 0 {
                    search: for step in 1...reach {
                        for side in [Float(1), -1] {
                            let key = Self.key((world + (side * Float(step) * voxelSize) * ray) * inverseSize)
                            if let index = existingSurfel(at: key), (normalSums[index] * worldNormal).sum() > 0 {
                                found = index
                                break search
                            }
                        }
                    }
                }
                let home = existingSurfel(at: Self.key(world * inverseSize))
                guard let index = home ?? found ?? surfel(at: Self.key(world * inverseSize)) else { continue }
                let total = weights[index]
                // A surfel seen from its back (the other side of a thin board) is another surface.
                if total > 0, (normalSums[index] * worldNormal).sum() < 0 { continue }
                var fade: Float = 1
                if total + weight > maximumWeight { fade = max(0, maximumWeight - weight) / total }
                let faded = total * fade
                positions[index] += (weight / (faded + weight)) * (world - positions[index])
                normalSums[index] = normalSums[index] * fade + weight * worldNormal
                weights[index] = faded + weight
            }
        }
    }

    /// The model as seen from `pose` (world from camera) by a camera with `intrinsics`, on a grid
    /// of every `reduction`-th pixel, as a keyframe taken at `pose` would hold it (camera
    /// coordinates). Each surfel facing the camera covers a square of about its voxel's size.
    /// A cell holds the point where its pixel ray meets the weighted mean plane of the surfels on
    /// the nearest surface there: those within a voxel plus six times the depth noise σ(z) =
    /// `noiseA + noiseB·z²` behind the nearest. The nearest alone, or a narrower band, would be
    /// biased towards the camera by the noise (on generated walks, a narrower band of 3σ doubled
    /// the drift), and a frame registered against it pulled along.
    func render(at pose: Transform, intrinsics k: PinholeIntrinsics, reduction: Int, frame: Int,
                noiseA: Float, noiseB: Float) -> DepthKeyframe {
        let w = k.width / reduction, h = k.height / reduction
        let r = Float(reduction)
        let fx = k.fx / r, fy = k.fy / r, cx = k.cx / r, cy = k.cy / r
        var nearest = ContiguousArray<Float>(repeating: .infinity, count: w * h)
        var cellPoints = ContiguousArray<SIMD3<Float>>(repeating: .zero, count: w * h)
        var cellNormals = ContiguousArray<SIMD3<Float>>(repeating: .zero, count: w * h)
        var cellWeights = ContiguousArray<Float>(repeating: 0, count: w * h)
        var cellOffsets = ContiguousArray<Float>(repeating: 0, count: w * h)
        // Camera from world.
        let inverse = pose.inverse
        let (c0, c1, c2) = inverse.rotation.columns
        let t = inverse.translation
        let halfSize = voxelSize / 2
        let maxU = Float(w), maxV = Float(h)
        // Pass 1: the surfels in view, facing the camera, and the nearest depth in each cell.
        var visible = ContiguousArray<VisibleSurfel>()
        visible.reserveCapacity(weights.count / 2)
        nearest.withUnsafeMutableBufferPointer { nearest in
            positions.withUnsafeBufferPointer { positions in
                normalSums.withUnsafeBufferPointer { normalSums in
                    weights.withUnsafeBufferPointer { weights in
                        for i in weights.indices {
                            let p = positions[i]
                            let q = c0 * p.x + c1 * p.y + c2 * p.z + t
                            guard q.z > 0.1 else { continue }
                            let inverseDepth = 1 / q.z
                            let u = fx * q.x * inverseDepth + cx, v = fy * q.y * inverseDepth + cy
                            guard u > -2, v > -2, u < maxU + 2, v < maxV + 2 else { continue }
                            let m = normalSums[i]
                            var n = c0 * m.x + c1 * m.y + c2 * m.z
                            let length = (n * n).sum().squareRoot()
                            // Facing away, or seen so edge-on that its position says little.
                            guard (n * q).sum() < -0.1 * length * (q * q).sum().squareRoot() else { continue }
                            n /= length
                            // Half the voxel's side in grid cells, at most 2.
                            let radius = min(2, Int(halfSize * fx * inverseDepth + 0.5))
                            let u0 = max(0, Int(u + 0.5) - radius), u1 = min(w - 1, Int(u + 0.5) + radius)
                            let v0 = max(0, Int(v + 0.5) - radius), v1 = min(h - 1, Int(v + 0.5) + radius)
                            guard u0 <= u1, v0 <= v1 else { continue }
                            for row in v0...v1 {
                                for column in u0...u1 where q.z < nearest[row * w + column] { nearest[row * w + column] = q.z }
                            }
                            visible.append(VisibleSurfel(point: q, normal: n, weight: weights[i],
                                                         columns: (Int32(u0), Int32(u1)), rows: (Int32(v0), Int32(v1))))
                        }
                    }
                }
            }
        }
        // Pass 2: each cell's mean of the surfels on its nearest surface.
        nearest.withUnsafeBufferPointer { nearest in
            cellPoints.withUnsafeMutableBufferPointer { cellPoints in
                cellNormals.withUnsafeMutableBufferPointer { cellNormals in
                    cellWeights.withUnsafeMutableBufferPointer { cellWeights in
                      cellOffsets.withUnsafeMutableBufferPointer { cellOffsets in
                        for surfel in visible {
                            let q = surfel.point, weight = surfel.weight
                            let limit = q.z - voxelSize - 6 * (noiseA + noiseB * q.z * q.z)
                            for row in Int(surfel.rows.0)...Int(surfel.rows.1) {
                                for column in Int(surfel.columns.0)...Int(surfel.columns.1) {
                                    let cell = row * w + column
                                    guard nearest[cell] >= limit else { continue }
                                    cellPoints[cell] += weight * q
                                    cellNormals[cell] += weight * surfel.normal
                                    cellWeights[cell] += weight
                                    cellOffsets[cell] += weight * (surfel.normal * q).sum()
                                }
                            }
                        }
                      }
                    }
                }
            }
        }
        var filled = 0
        for cell in cellWeights.indices where cellWeights[cell] > 0 {
            let n = cellNormals[cell]
            let length = (n * n).sum().squareRoot()
            guard length > 0 else {
                cellPoints[cell] = .zero
                continue
            }
            let normal = n / length
            cellNormals[cell] = normal
            // The point where the cell's pixel ray meets the mean plane, as a ray cast would find it.
            let ray = SIMD3<Float>((Float(cell % w) - cx) / fx, (Float(cell / w) - cy) / fy, 1)
            let along = (normal * ray).sum()
            let mean = cellPoints[cell] / cellWeights[cell]
            let depth = along < -0.2 ? cellOffsets[cell] / (along * length) : 0
            cellPoints[cell] = depth > 0 && abs(depth - mean.z) < voxelSize ? depth * ray : mean
            filled += 1
        }
        return DepthKeyframe(pose: pose, frame: frame, width: w, height: h, fx: fx, fy: fy, cx: cx, cy: cy,
                             reduction: reduction, vertices: cellPoints, normals: cellNormals, validCount: filled)
    }

    /// A surfel in view while rendering: camera coordinates and the grid cells it covers.
    private struct VisibleSurfel {
        var point: SIMD3<Float>, normal: SIMD3<Float>, weight: Float
        var columns: (Int32, Int32), rows: (Int32, Int32)
    }

    // MARK: Voxel hash

    /// The packed key of the voxel holding the scaled point `p / voxelSize` (21 bits a coordinate).
    @inline(__always) private static func key(_ scaled: SIMD3<Float>) -> Int64 {
        let limit: Float = 1_048_575
        @inline(__always) func bits(_ x: Float) -> Int64 { Int64(min(max(x.rounded(.down), -limit), limit)) & (1 << 21 - 1) }
        return bits(scaled.x) | bits(scaled.y) << 21 | bits(scaled.z) << 42
    }

    /// The index of the surfel of the voxel `key`, made empty when new; `nil` when the model is full.
    /// The index of the surfel of the voxel `key`, `nil` when it has none.
    @inline(__always) private func existingSurfel(at key: Int64) -> Int? {
        var slot = Self.slot(of: key, mask: slots.count - 1)
        while true {
            let index = slots[slot]
            if index < 0 { return nil }
            if slotKeys[slot] == key { return Int(index) }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    @inline(__always) private mutating func surfel(at key: Int64) -> Int? {
        var slot = Self.slot(of: key, mask: slots.count - 1)
        while true {
            let index = slots[slot]
            if index < 0 { break }
            if slotKeys[slot] == key { return Int(index) }
            slot = (slot + 1) & (slots.count - 1)
        }
        guard weights.count < capacity else { return nil }
        if (weights.count + 1) * 2 > slots.count {
            resize(to: slots.count * 2)
            return surfel(at: key)
        }
        slots[slot] = Int32(weights.count)
        slotKeys[slot] = key
        positions.append(.zero)
        normalSums.append(.zero)
        weights.append(0)
        return weights.count - 1
    }

    @inline(__always) private static func slot(of key: Int64, mask: Int) -> Int {
        // Fibonacci hashing: the high bits of the product mix all three coordinates.
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// Rebuilds the hash with `size` slots (a power of two).
    private mutating func resize(to size: Int) {
        let oldKeys = slotKeys, oldSlots = slots
        slots = ContiguousArray(repeating: -1, count: size)
        slotKeys = ContiguousArray(repeating: 0, count: size)
        for i in oldSlots.indices where oldSlots[i] >= 0 {
            var slot = Self.slot(of: oldKeys[i], mask: size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = oldSlots[i]
            slotKeys[slot] = oldKeys[i]
        }
    }
}
