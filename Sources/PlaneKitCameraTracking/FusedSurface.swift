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
    /// The most surfels kept (memory: about 60 bytes each with the hash).
    let capacity: Int

    /// The surfels' weighted mean world positions…
    private var positions = ContiguousArray<SIMD3<Float>>()
    /// …and of their world unit normals (facing the cameras that saw them).
    private var normalSums = ContiguousArray<SIMD3<Float>>()
    /// The surfels' total weights.
    private var weights = ContiguousArray<Float>()
    /// The surfel of each voxel that started one.
    private var surfelIndex = VoxelIndex()
    /// The key of the voxel that started each surfel.
    private var surfelKeys = ContiguousArray<Int64>()
    /// Surfels started since the storage was last put in brick order.
    private var unordered = 0
    /// Bricks of 8×8×8 voxels (16 cm at 2 cm voxels): what rendering culls against the view.
    private var brickIndex = VoxelIndex()
    /// Each brick's corner (world, the brick's smallest coordinates)…
    private var brickCorners = ContiguousArray<SIMD3<Float>>()
    /// …and the surfels started in it.
    private var brickMembers: [ContiguousArray<Int32>] = []
    /// Side of a brick (m): 8 voxels.
    private var brickSize: Float { voxelSize * 8 }

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
        surfelIndex.removeAll()
        surfelKeys.removeAll(keepingCapacity: true)
        unordered = 0
        brickIndex.removeAll()
        brickCorners.removeAll(keepingCapacity: true)
        brickMembers.removeAll(keepingCapacity: true)
    }

    /// Adds a frame's surface: `view`'s points and normals (camera coordinates) taken at `pose`
    /// (world from camera). Each point weighs `(σ(1 m) / σ(z))²` for the depth noise σ(z) =
    /// `noiseA + noiseB·z²`, so near, precise readings dominate far, noisy ones; points farther
    /// than `maximumDepth` are left out. With `extendingOnly`, a point joins no existing surfel
    /// and only starts new ones (a frame whose pose is partly guessed extends the surface
    /// without moving it).
    mutating func integrate(_ view: DepthKeyframe, pose: Transform, noiseA: Float, noiseB: Float, maximumDepth: Float = 4,
                            extendingOnly: Bool = false) {
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
                let existing = surfelIndex.find(VoxelIndex.key(world * inverseSize))
                    ?? surfel(alongRayFrom: world, ray: (world - t) * (1 / p.z), within: 2 * sigma, facing: worldNormal)
                if existing != nil, extendingOnly { continue }
                guard let index = existing ?? startSurfel(at: world) else { continue }
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
        // A tenth of the surfels out of order costs less to reorder than to read at random.
        if unordered * 10 > weights.count { orderByBrick() }
    }

    /// The surfel nearest to `world` along `ray` (the camera's ray through it, unit depth),
    /// at most `distance` (and 3 voxels) in front of or behind it, facing the same side as
    /// `normal`. A noisy reading lands a few voxels in front of or behind the surface it
    /// measured: joining that surface's surfel keeps the surface one layer thick instead of a
    /// shell as thick as the noise.
    @inline(__always) private func surfel(alongRayFrom world: SIMD3<Float>, ray: SIMD3<Float>, within distance: Float,
                                          facing normal: SIMD3<Float>) -> Int? {
        let inverseSize = 1 / voxelSize
        let reach = min(3, Int(distance * inverseSize))
        guard reach > 0 else { return nil }
        for step in 1...reach {
            let offset = (Float(step) * voxelSize) * ray
            for side in 0..<2 {
                let candidate = side == 0 ? world + offset : world - offset
                if let index = surfelIndex.find(VoxelIndex.key(candidate * inverseSize)), (normalSums[index] * normal).sum() > 0 {
                    return index
                }
            }
        }
        return nil
    }

    /// Puts the surfels in brick order, so that rendering reads each brick's surfels from one
    /// stretch of memory rather than from wherever the frames that started them put them
    /// (random reads were a third of a rendering).
    private mutating func orderByBrick() {
        var order = ContiguousArray<Int32>()
        order.reserveCapacity(weights.count)
        for brick in brickMembers.indices {
            let first = order.count
            order.append(contentsOf: brickMembers[brick])
            brickMembers[brick] = ContiguousArray((Int32(first)..<Int32(order.count)))
        }
        func reordered<T>(_ values: ContiguousArray<T>) -> ContiguousArray<T> { ContiguousArray(order.map { values[Int($0)] }) }
        positions = reordered(positions)
        normalSums = reordered(normalSums)
        weights = reordered(weights)
        surfelKeys = reordered(surfelKeys)
        surfelIndex.removeAll()
        for (index, key) in surfelKeys.enumerated() { surfelIndex.insert(key, index: index) }
        unordered = 0
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
        let reduced = k.reduced(by: reduction)
        let fx = reduced.fx, fy = reduced.fy, cx = reduced.cx, cy = reduced.cy
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
        // A brick's surfels lie within its bounding sphere, widened for the way means wander
        // from the voxel that started them.
        let brickRadius = brickSize * 0.87 + 4 * voxelSize
        nearest.withUnsafeMutableBufferPointer { nearest in
            positions.withUnsafeBufferPointer { positions in
                normalSums.withUnsafeBufferPointer { normalSums in
                    weights.withUnsafeBufferPointer { weights in
                        for brick in brickMembers.indices {
                          let centre = brickCorners[brick] + brickSize / 2
                          let b = c0 * centre.x + c1 * centre.y + c2 * centre.z + t
                          guard b.z > 0.1 - brickRadius else { continue }
                          if b.z > brickRadius {
                              // Outside the image by more than the sphere's projected radius.
                              let inverseNear = 1 / (b.z - brickRadius)
                              let u = fx * b.x / b.z + cx, v = fy * b.y / b.z + cy
                              let ru = fx * brickRadius * inverseNear, rv = fy * brickRadius * inverseNear
                              guard u + ru > -2, u - ru < maxU + 2, v + rv > -2, v - rv < maxV + 2 else { continue }
                          }
                          brickMembers[brick].withUnsafeBufferPointer { members in
                           for member in members {
                            let i = Int(member)
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

    // MARK: Storage

    /// A new, empty surfel for the voxel holding `world`, listed in its brick; `nil` when the
    /// model is full.
    private mutating func startSurfel(at world: SIMD3<Float>) -> Int? {
        guard weights.count < capacity else { return nil }
        let index = weights.count
        let key = VoxelIndex.key(world * (1 / voxelSize))
        surfelIndex.insert(key, index: index)
        surfelKeys.append(key)
        unordered += 1
        positions.append(.zero)
        normalSums.append(.zero)
        weights.append(0)
        let brickKey = VoxelIndex.key(world * (1 / brickSize))
        if let brick = brickIndex.find(brickKey) {
            brickMembers[brick].append(Int32(index))
        } else {
            brickIndex.insert(brickKey, index: brickMembers.count)
            brickCorners.append((world * (1 / brickSize)).rounded(.down) * brickSize)
            brickMembers.append([Int32(index)])
        }
        return index
    }
}
