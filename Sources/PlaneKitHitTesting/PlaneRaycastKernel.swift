import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

/// How a detected plane's bounds are taken when casting rays at it.
public enum PlaneBounds: String, Sendable, Hashable, CaseIterable {
    /// Inside the boundary polygon (``HitTestTarget/existingPlaneGeometry``).
    case geometry
    /// Inside the rectangular extent (``HitTestTarget/existingPlaneUsingExtent``).
    case extent
    /// Unbounded (``HitTestTarget/existingPlaneInfinite``).
    case infinite
}

/// Detected planes prepared for casting many rays: the fast core of hit testing.
///
/// Each plane is reduced to numbers: its normal and offset, the two rows that map a world point
/// to local `(x, z)`, its extent, its polygon's bounding rectangle and a `PolygonGrid` for the
/// polygon itself. The batch cast takes four rays at a time, one per SIMD lane, and runs through
/// the planes with each plane's numbers already repeated across the lanes: distance along the
/// ray, then the hit point's local coordinates against the rectangle, skipping the rest of a
/// plane as soon as no lane can still hit it. Only lanes inside a rectangle (and nearer than
/// their best hit so far) run the polygon test. Nothing is allocated per ray.
///
/// A run of at least `minimumRun` consecutive rays from one origin (a camera's pixels) goes
/// another way (`OriginCast`): the origin's `DirectionCells` list, per direction cell, the
/// planes a ray in it can reach, nearest first, and each ray tests only those. For
/// `.geometry` and `.extent`, with at most 64 planes; the answers are the same.
///
/// The batch cast and `crossings(of:alignment:)` (behind ``HitTester``) evaluate the same
/// expressions in the same order, so their distances, local coordinates and therefore their
/// answers are identical.
///
/// Planes are two-sided (a ray from behind a plane hits it too); a ray starting on a plane hits
/// it at distance 0; a ray parallel to a plane (|n·d| ≤ 1e-6) misses it; rays with NaN or
/// infinite numbers miss everything.
public struct PlaneRaycastKernel: Sendable {
    /// One plane's numbers, for the scalar path and for building results.
    @usableFromInline struct PreparedPlane: Sendable {
        @usableFromInline var normal: SIMD3<Float>
        @usableFromInline var offset: Float
        /// Local x and z of a world point p: `dot(p, xRow) + xConstant`, `dot(p, zRow) + zConstant`.
        @usableFromInline var xRow: SIMD3<Float>
        @usableFromInline var xConstant: Float
        @usableFromInline var zRow: SIMD3<Float>
        @usableFromInline var zConstant: Float
        @usableFromInline var extentMinimum: SIMD2<Float>
        @usableFromInline var extentMaximum: SIMD2<Float>
        @usableFromInline var grid: PolygonGrid
        @usableFromInline var alignmentBit: Int32

        /// `n·o + offset`: the origin's signed distance from the plane (for a unit normal).
        @inline(__always) @usableFromInline
        func signedDistance(_ o: SIMD3<Float>) -> Float {
            normal.x * o.x + normal.y * o.y + normal.z * o.z + offset
        }

        /// `n·d` and the distance `−(n·o + offset) / (n·d)` to the plane along the ray, given
        /// the origin's ``signedDistance(_:)``.
        @inline(__always) @usableFromInline
        func distance(signed: Float, _ d: SIMD3<Float>) -> (denominator: Float, t: Float) {
            let denominator = normal.x * d.x + normal.y * d.y + normal.z * d.z
            return (denominator, -signed / denominator)
        }

        /// `n·d` and the distance `−(n·o + offset) / (n·d)` to the plane along the ray.
        @inline(__always) @usableFromInline
        func distance(_ o: SIMD3<Float>, _ d: SIMD3<Float>) -> (denominator: Float, t: Float) {
            distance(signed: signedDistance(o), d)
        }

        /// Local `(x, z)` of the point at distance `t` along the ray.
        @inline(__always) @usableFromInline
        func local(_ o: SIMD3<Float>, _ d: SIMD3<Float>, _ t: Float) -> SIMD2<Float> {
            let px = o.x + t * d.x, py = o.y + t * d.y, pz = o.z + t * d.z
            return SIMD2(xRow.x * px + xRow.y * py + xRow.z * pz + xConstant,
                         zRow.x * px + zRow.y * py + zRow.z * pz + zConstant)
        }
    }

    /// One plane's numbers, each repeated across four lanes, for the batch cast.
    @usableFromInline struct PlaneLanes: Sendable {
        @usableFromInline var nx, ny, nz, nd: SIMD4<Float>
        @usableFromInline var ux, uy, uz, u0: SIMD4<Float>
        @usableFromInline var vx, vy, vz, v0: SIMD4<Float>
        /// The rectangle a hit must lie in: the polygon's bounding rectangle widened by
        /// ``PolygonGrid/edgeTolerance`` (computed exactly as ``PolygonGrid/contains`` does) for
        /// `.geometry`, the extent for `.extent`.
        @usableFromInline var minU, maxU, minV, maxV: SIMD4<Float>
        @usableFromInline var extentMinU, extentMaxU, extentMinV, extentMaxV: SIMD4<Float>
    }

    /// The planes in the order given.
    @usableFromInline let planes: ContiguousArray<PreparedPlane>
    @usableFromInline let lanes: ContiguousArray<PlaneLanes>
    @usableFromInline let storage: PolygonGridStorage
    /// Each plane's polygon rectangle (widened as in ``PlaneLanes``) and extent in the world, for
    /// the direction cells of runs of rays from one origin.
    let geometryRectangles: ContiguousArray<PlaneRectangle>
    let extentRectangles: ContiguousArray<PlaneRectangle>

    /// How many planes the kernel holds.
    public var count: Int { planes.count }

    /// Prepares `planes` (world coordinates). Plane `i` of the list is `planeIndex == i` in hits.
    public init(planes detected: [DetectedPlane]) {
        var storage = PolygonGridStorage()
        var prepared = ContiguousArray<PreparedPlane>()
        prepared.reserveCapacity(detected.count)
        for plane in detected {
            let t = plane.transform
            let xAxis = t.xAxis, zAxis = t.zAxis
            let usable = plane.plane.normal.isFinite && plane.offset.isFinite && t.translation.isFinite
            let grid = usable ? storage.add(plane.boundary) : .empty
            prepared.append(PreparedPlane(
                normal: usable ? plane.plane.normal : .zero, offset: usable ? plane.offset : 0,
                xRow: xAxis, xConstant: -dot(t.translation, xAxis), zRow: zAxis, zConstant: -dot(t.translation, zAxis),
                extentMinimum: plane.extent.minimum, extentMaximum: plane.extent.maximum,
                grid: grid, alignmentBit: PlaneRaycastKernel.bit(plane.alignment)))
        }
        let tolerance = PolygonGrid.edgeTolerance
        self.lanes = ContiguousArray(prepared.map { p in
            func splat(_ x: Float) -> SIMD4<Float> { SIMD4(repeating: x) }
            return PlaneLanes(
                nx: splat(p.normal.x), ny: splat(p.normal.y), nz: splat(p.normal.z), nd: splat(p.offset),
                ux: splat(p.xRow.x), uy: splat(p.xRow.y), uz: splat(p.xRow.z), u0: splat(p.xConstant),
                vx: splat(p.zRow.x), vy: splat(p.zRow.y), vz: splat(p.zRow.z), v0: splat(p.zConstant),
                minU: splat(p.grid.minimum.x - tolerance), maxU: splat(p.grid.maximum.x + tolerance),
                minV: splat(p.grid.minimum.y - tolerance), maxV: splat(p.grid.maximum.y + tolerance),
                extentMinU: splat(p.extentMinimum.x), extentMaxU: splat(p.extentMaximum.x),
                extentMinV: splat(p.extentMinimum.y), extentMaxV: splat(p.extentMaximum.y))
        })
        self.planes = prepared
        self.storage = storage
        func rectangle(_ p: PreparedPlane, _ minimum: SIMD2<Float>, _ maximum: SIMD2<Float>) -> PlaneRectangle {
            PlaneRectangle(normal: p.normal, offset: p.offset, xRow: p.xRow, xConstant: p.xConstant, zRow: p.zRow,
                           zConstant: p.zConstant, minimum: minimum, maximum: maximum)
        }
        geometryRectangles = ContiguousArray(prepared.map { p in
            // The same widened rectangle as PlaneLanes and PolygonGrid.contains; none without a grid.
            p.grid.columns > 0 ? rectangle(p, p.grid.minimum - tolerance, p.grid.maximum + tolerance)
                : rectangle(p, SIMD2(repeating: 1), SIMD2(repeating: -1))
        })
        extentRectangles = ContiguousArray(prepared.map { rectangle($0, $0.extentMinimum, $0.extentMaximum) })
    }

    /// The fewest consecutive rays from one origin for which the batch cast builds that origin's
    /// ``DirectionCells`` (its cost is that of a few hundred rays tested against every plane).
    static let minimumRun = 256

    @usableFromInline static func bit(_ alignment: PlaneAlignment) -> Int32 {
        switch alignment {
        case .horizontal: 1
        case .vertical: 2
        case .any: 4
        }
    }

    /// The lane mask of planes whose alignment satisfies `allowed`.
    @usableFromInline static func allowedBits(_ allowed: PlaneAlignment) -> Int32 {
        allowed == .any ? 7 : bit(allowed)
    }

    // MARK: Batch cast

    /// Casts `origins.count` rays and writes each one's nearest hit among planes of an allowed
    /// alignment, taking plane bounds as `bounds`. Processes `min(origins.count,
    /// directions.count, hits.count)` rays. Directions should be unit length for distances in
    /// metres; they are used as given.
    public func castRays(origins: UnsafeBufferPointer<SIMD3<Float>>, directions: UnsafeBufferPointer<SIMD3<Float>>,
                         bounds: PlaneBounds = .geometry, alignment: PlaneAlignment = .any,
                         into hits: UnsafeMutableBufferPointer<PlaneRayHit>) {
        let n = min(origins.count, directions.count, hits.count)
        let allowed = PlaneRaycastKernel.allowedBits(alignment)
        withView { view in
            // Every plane for each group of four rays, over start ..< end.
            func castAll(_ start: Int, _ end: Int) {
                var i = start
                // One loop per bounds kind, so that the kind is a constant inside each loop.
                switch bounds {
                case .geometry:
                    while i < end { view.cast(origins, directions, from: i, count: end, bounds: .geometry, allowed: allowed, into: hits); i &+= 4 }
                case .extent:
                    while i < end { view.cast(origins, directions, from: i, count: end, bounds: .extent, allowed: allowed, into: hits); i &+= 4 }
                case .infinite:
                    while i < end { view.cast(origins, directions, from: i, count: end, bounds: .infinite, allowed: allowed, into: hits); i &+= 4 }
                }
            }
            // Direction cells cull nothing for unbounded planes and hold at most 64.
            guard bounds != .infinite, view.planes.count <= DirectionCells.maximumPlanes,
                  n >= PlaneRaycastKernel.minimumRun else {
                castAll(0, n)
                return
            }
            var table: OriginCast?
            var pending = 0, i = 0
            while i < n {
                let o = origins[i]
                var end = i &+ 1
                while end < n && PlaneRaycastKernel.same(origins[end], o) { end &+= 1 }
                if end &- i >= PlaneRaycastKernel.minimumRun && o.isFinite {
                    castAll(pending, i)
                    if table == nil {
                        table = OriginCast(rectangles: bounds == .geometry ? geometryRectangles : extentRectangles)
                    }
                    table!.build(origin: o, planes: view.planes, allowed: allowed)
                    table!.cast(o, directions, from: i, to: end, geometry: bounds == .geometry, view: view, into: hits)
                    pending = end
                }
                i = end
            }
            castAll(pending, n)
        }
    }

    /// Runs `body` with the kernel's arrays as raw buffers.
    func withView<R>(_ body: (KernelView) throws -> R) rethrows -> R {
        try lanes.withUnsafeBufferPointer { lanes in
            try planes.withUnsafeBufferPointer { planes in
                try storage.cells.withUnsafeBufferPointer { cells in
                    try storage.slabs.withUnsafeBufferPointer { slabs in
                        try storage.edges.withUnsafeBufferPointer { edges in
                            try storage.sums.withUnsafeBufferPointer { sums in
                                try body(KernelView(lanes: lanes, planes: planes, cells: cells, slabs: slabs, edges: edges, sums: sums))
                            }
                        }
                    }
                }
            }
        }
    }

    /// `true` when `a` and `b` are the same bits (so that every number computed from them is).
    @inline(__always) static func same(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Bool {
        a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern && a.z.bitPattern == b.z.bitPattern
    }

    /// The kernel's arrays as raw buffers, taken once per batch.
    @usableFromInline struct KernelView {
        let lanes: UnsafeBufferPointer<PlaneLanes>
        let planes: UnsafeBufferPointer<PreparedPlane>
        /// The polygon grids' arrays.
        let cells: UnsafeBufferPointer<UInt8>
        let slabs: UnsafeBufferPointer<SIMD2<Int32>>
        let edges: UnsafeBufferPointer<SIMD4<Float>>
        /// The grids' summed cell counts, for classifying footprints.
        let sums: UnsafeBufferPointer<SIMD2<Int32>>

        init(lanes: UnsafeBufferPointer<PlaneLanes>, planes: UnsafeBufferPointer<PreparedPlane>, cells: UnsafeBufferPointer<UInt8>,
             slabs: UnsafeBufferPointer<SIMD2<Int32>>, edges: UnsafeBufferPointer<SIMD4<Float>>, sums: UnsafeBufferPointer<SIMD2<Int32>>) {
            (self.lanes, self.planes, self.cells, self.slabs, self.edges, self.sums) = (lanes, planes, cells, slabs, edges, sums)
        }

        /// Bit `k` set for each lane `k` whose mask is true (a lane's mask is all ones or zero).
        @inline(__always) static func laneBits(_ mask: SIMDMask<SIMD4<Int32>>) -> Int {
            // The sign bits, gathered as the x86 movmskps does; the optimizer folds this to it.
            let signs = unsafeBitCast(mask, to: SIMD4<UInt32>.self) &>> 31
            return Int(signs.x | (signs.y &<< 1) | (signs.z &<< 2) | (signs.w &<< 3))
        }

        /// `true` when any lane's mask is true.
        @inline(__always) static func any(_ mask: SIMDMask<SIMD4<Int32>>) -> Bool {
            let m = unsafeBitCast(mask, to: SIMD4<Int32>.self)
            let h = m.lowHalf | m.highHalf
            return h.x | h.y != 0
        }

        /// Casts rays `start ..< min(start + 4, count)`, one per lane, and writes their hits.
        ///
        /// Per plane, every lane's conditions (not parallel, in front, nearer than the lane's best
        /// hit so far, inside the rectangle) are SIMD masks; a plane that no lane can hit any more
        /// is left after its distance. Rays with NaN or infinite numbers start with a best
        /// distance of −∞, so nothing is nearer.
        @inline(__always)
        func cast(_ origins: UnsafeBufferPointer<SIMD3<Float>>, _ directions: UnsafeBufferPointer<SIMD3<Float>>,
                  from start: Int, count: Int, bounds: PlaneBounds, allowed: Int32,
                  into hits: UnsafeMutableBufferPointer<PlaneRayHit>) {
            // Four rays, the last one repeated past the end of the batch (those lanes are not
            // written), moved from one-ray-per-vector to one-coordinate-per-vector.
            let last = count &- 1
            let o0 = origins[start], o1 = origins[min(start &+ 1, last)], o2 = origins[min(start &+ 2, last)], o3 = origins[min(start &+ 3, last)]
            let d0 = directions[start], d1 = directions[min(start &+ 1, last)], d2 = directions[min(start &+ 2, last)], d3 = directions[min(start &+ 3, last)]
            let ox = SIMD4(o0.x, o1.x, o2.x, o3.x), oy = SIMD4(o0.y, o1.y, o2.y, o3.y), oz = SIMD4(o0.z, o1.z, o2.z, o3.z)
            let dx = SIMD4(d0.x, d1.x, d2.x, d3.x), dy = SIMD4(d0.y, d1.y, d2.y, d3.y), dz = SIMD4(d0.z, d1.z, d2.z, d3.z)
            // A sum of NaN or infinity minus itself is NaN: such rays get best −∞ and miss.
            let sum = ox + oy + oz + dx + dy + dz
            var best = SIMD4<Float>(repeating: -.infinity)
            best.replace(with: .infinity, where: sum - sum .== SIMD4<Float>())
            let used = min(4, count &- start)
            var bestIndex = SIMD4<Int32>(repeating: -1)
            let zero = SIMD4<Float>(), limit = SIMD4<Float>(repeating: 1e-6)
            for index in 0..<lanes.count {
                if allowed != 7 && planes[index].alignmentBit & allowed == 0 { continue }
                let p = lanes.baseAddress! + index
                // The same expressions, in the same order, as PreparedPlane.distance and .local.
                let denominator = p.pointee.nx * dx + p.pointee.ny * dy + p.pointee.nz * dz
                let signed = p.pointee.nx * ox + p.pointee.ny * oy + p.pointee.nz * oz + p.pointee.nd
                let t = -signed / denominator
                var live = (t .>= zero) .& (t .< best)
                guard KernelView.any(live) else { continue }
                live .&= (denominator .> limit) .| (denominator .< -limit)
                var u = SIMD4<Float>(), v = SIMD4<Float>()
                if bounds != .infinite {
                    let px = ox + t * dx, py = oy + t * dy, pz = oz + t * dz
                    u = p.pointee.ux * px + p.pointee.uy * py + p.pointee.uz * pz + p.pointee.u0
                    v = p.pointee.vx * px + p.pointee.vy * py + p.pointee.vz * pz + p.pointee.v0
                    if bounds == .geometry {
                        live .&= (u .>= p.pointee.minU) .& (u .<= p.pointee.maxU) .& (v .>= p.pointee.minV) .& (v .<= p.pointee.maxV)
                    } else {
                        live .&= (u .>= p.pointee.extentMinU) .& (u .<= p.pointee.extentMaxU)
                            .& (v .>= p.pointee.extentMinV) .& (v .<= p.pointee.extentMaxV)
                    }
                }
                guard KernelView.any(live) else { continue }
                if bounds == .geometry {
                    var bits = KernelView.laneBits(live)
                    while bits != 0 {
                        let lane = bits.trailingZeroBitCount
                        bits &= bits &- 1
                        if planes[index].grid.contains(SIMD2(u[lane], v[lane]), cells: cells, slabs: slabs, edges: edges) {
                            best[lane] = t[lane]
                            bestIndex[lane] = Int32(truncatingIfNeeded: index)
                        }
                    }
                } else {
                    best.replace(with: t, where: live)
                    bestIndex.replace(with: SIMD4(repeating: Int32(truncatingIfNeeded: index)), where: live)
                }
            }
            for k in 0..<used {
                // A ray starting on the plane gives −0; report +0.
                hits[start &+ k] = bestIndex[k] < 0 ? .miss : PlaneRayHit(distance: best[k] == 0 ? 0 : best[k], planeIndex: bestIndex[k])
            }
        }
    }

    // MARK: Every hit of one ray

    /// One plane a ray meets: distance, local `(x, z)` and whether it is inside the extent and
    /// the polygon.
    @usableFromInline struct PlaneCrossing: Sendable {
        var planeIndex: Int
        var distance: Float
        var local: SIMD2<Float>
        var insideExtent: Bool
        var insideGeometry: Bool
    }

    /// Every plane of an allowed alignment that the ray meets (as an infinite plane), with its
    /// bounds tests; unsorted.
    func crossings(of ray: Ray, alignment: PlaneAlignment) -> [PlaneCrossing] {
        let allowed = PlaneRaycastKernel.allowedBits(alignment)
        let o = ray.origin, d = ray.direction
        guard o.isFinite, d.isFinite else { return [] }
        var result: [PlaneCrossing] = []
        storage.cells.withUnsafeBufferPointer { cells in
            storage.slabs.withUnsafeBufferPointer { slabs in
                storage.edges.withUnsafeBufferPointer { edges in
                    for (index, p) in planes.enumerated() where p.alignmentBit & allowed != 0 {
                        let (denominator, t) = p.distance(o, d)
                        guard denominator > 1e-6 || denominator < -1e-6, t >= 0 else { continue }
                        let local = p.local(o, d, t)
                        let inExtent = local.x >= p.extentMinimum.x && local.x <= p.extentMaximum.x
                            && local.y >= p.extentMinimum.y && local.y <= p.extentMaximum.y
                        let inGeometry = p.grid.contains(local, cells: cells, slabs: slabs, edges: edges)
                        result.append(PlaneCrossing(planeIndex: index, distance: t == 0 ? 0 : t, local: local,
                                                    insideExtent: inExtent, insideGeometry: inGeometry))
                    }
                }
            }
        }
        return result
    }

    /// `true` when the local point `(x, z)` lies inside plane `index`'s boundary polygon (or on
    /// its outline).
    public func polygonContains(planeIndex index: Int, local p: SIMD2<Float>) -> Bool {
        guard planes.indices.contains(index) else { return false }
        return storage.cells.withUnsafeBufferPointer { cells in
            storage.slabs.withUnsafeBufferPointer { slabs in
                storage.edges.withUnsafeBufferPointer { edges in
                    planes[index].grid.contains(p, cells: cells, slabs: slabs, edges: edges)
                }
            }
        }
    }
}
