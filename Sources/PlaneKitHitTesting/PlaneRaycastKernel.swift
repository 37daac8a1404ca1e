import PlaneKitDetection
import PlaneKitGeometry

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
/// Each plane is reduced to numbers in flat arrays: its normal and offset, the two rows that map
/// a world point to local `(x, z)`, its extent, its polygon's bounding rectangle and a
/// ``PolygonGrid`` for the polygon itself. The batch cast tests one ray against eight planes
/// at a time in SIMD lanes (plane, then rectangle, in one pass), and runs the polygon test only
/// for lanes that survive, nearest-so-far pruning included. Nothing is allocated per ray.
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
    }

    /// Eight planes in SIMD lanes (structure of arrays); unused lanes have a zero normal, so
    /// every ray is parallel to them.
    @usableFromInline struct LaneGroup: Sendable {
        @usableFromInline var nx = SIMD8<Float>(), ny = SIMD8<Float>(), nz = SIMD8<Float>(), nd = SIMD8<Float>()
        @usableFromInline var ux = SIMD8<Float>(), uy = SIMD8<Float>(), uz = SIMD8<Float>(), u0 = SIMD8<Float>()
        @usableFromInline var vx = SIMD8<Float>(), vy = SIMD8<Float>(), vz = SIMD8<Float>(), v0 = SIMD8<Float>()
        /// Rectangle per bounds kind: index 0 geometry (polygon bounds), 1 extent.
        @usableFromInline var minU = (SIMD8<Float>(), SIMD8<Float>()), maxU = (SIMD8<Float>(), SIMD8<Float>())
        @usableFromInline var minV = (SIMD8<Float>(), SIMD8<Float>()), maxV = (SIMD8<Float>(), SIMD8<Float>())
        /// Per lane, +1 when the plane may be hit with horizontal (0) or vertical (1) allowed,
        /// −1 when not (every lane may be hit with `.any` allowed).
        @usableFromInline var allowed = (SIMD8<Float>(repeating: -1), SIMD8<Float>(repeating: -1))
    }

    /// The planes in the order given.
    @usableFromInline let planes: ContiguousArray<PreparedPlane>
    @usableFromInline let groups: ContiguousArray<LaneGroup>
    @usableFromInline let storage: PolygonGridStorage

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
        var groups = ContiguousArray<LaneGroup>()
        for start in stride(from: 0, to: prepared.count, by: 8) {
            var g = LaneGroup()
            // A lane that can never pass its rectangle test: minimum above maximum.
            g.minU = (SIMD8(repeating: .infinity), SIMD8(repeating: .infinity))
            g.minV = g.minU
            g.maxU = (SIMD8(repeating: -.infinity), SIMD8(repeating: -.infinity))
            g.maxV = g.maxU
            for lane in 0..<min(8, prepared.count - start) {
                let p = prepared[start + lane]
                g.nx[lane] = p.normal.x; g.ny[lane] = p.normal.y; g.nz[lane] = p.normal.z; g.nd[lane] = p.offset
                g.ux[lane] = p.xRow.x; g.uy[lane] = p.xRow.y; g.uz[lane] = p.xRow.z; g.u0[lane] = p.xConstant
                g.vx[lane] = p.zRow.x; g.vy[lane] = p.zRow.y; g.vz[lane] = p.zRow.z; g.v0[lane] = p.zConstant
                g.minU.0[lane] = p.grid.minimum.x; g.maxU.0[lane] = p.grid.maximum.x
                g.minV.0[lane] = p.grid.minimum.y; g.maxV.0[lane] = p.grid.maximum.y
                g.minU.1[lane] = p.extentMinimum.x; g.maxU.1[lane] = p.extentMaximum.x
                g.minV.1[lane] = p.extentMinimum.y; g.maxV.1[lane] = p.extentMaximum.y
                g.allowed.0[lane] = p.alignmentBit == 1 ? 1 : -1
                g.allowed.1[lane] = p.alignmentBit == 2 ? 1 : -1
            }
            groups.append(g)
        }
        self.planes = prepared
        self.groups = groups
        self.storage = storage
    }

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
        let which = alignment == .horizontal ? 0 : (alignment == .vertical ? 1 : 2)
        groups.withUnsafeBufferPointer { groups in
            planes.withUnsafeBufferPointer { planes in
                storage.cells.withUnsafeBufferPointer { cells in
                    storage.slabs.withUnsafeBufferPointer { slabs in
                        storage.edges.withUnsafeBufferPointer { edges in
                          withUnsafeTemporaryAllocation(of: Candidate.self, capacity: max(1, planes.count)) { scratch in
                            let view = KernelView(groups: groups, planes: planes, cells: cells, slabs: slabs, edges: edges,
                                                  candidates: scratch.baseAddress!)
                            // One loop per bounds kind, so that the kind is a constant inside each loop.
                            switch bounds {
                            case .geometry:
                                for i in 0..<n { hits[i] = view.nearest(origins[i], directions[i], bounds: .geometry, alignment: which) }
                            case .extent:
                                for i in 0..<n { hits[i] = view.nearest(origins[i], directions[i], bounds: .extent, alignment: which) }
                            case .infinite:
                                for i in 0..<n { hits[i] = view.nearest(origins[i], directions[i], bounds: .infinite, alignment: which) }
                            }
                          }
                        }
                    }
                }
            }
        }
    }

    /// The bit patterns of eight floats (the sign bit is bit 31 of each lane).
    @inline(__always) @usableFromInline static func bits(_ x: SIMD8<Float>) -> SIMD8<Int32> {
        unsafeBitCast(x, to: SIMD8<Int32>.self)
    }

    /// A plane a ray meets inside its polygon's bounding rectangle, waiting for the polygon test.
    @usableFromInline struct Candidate {
        var distance: Float
        var index: Int32
        var local: SIMD2<Float>
    }

    /// The kernel's arrays as raw buffers, taken once per batch, and scratch room for one
    /// candidate per plane.
    @usableFromInline struct KernelView {
        let candidates: UnsafeMutablePointer<Candidate>
        let groups: UnsafeBufferPointer<LaneGroup>
        let planes: UnsafeBufferPointer<PreparedPlane>
        let cells: UnsafeBufferPointer<UInt8>
        let slabs: UnsafeBufferPointer<SIMD2<Int32>>
        let edges: UnsafeBufferPointer<SIMD4<Float>>

        init(groups: UnsafeBufferPointer<LaneGroup>, planes: UnsafeBufferPointer<PreparedPlane>, cells: UnsafeBufferPointer<UInt8>,
             slabs: UnsafeBufferPointer<SIMD2<Int32>>, edges: UnsafeBufferPointer<SIMD4<Float>>, candidates: UnsafeMutablePointer<Candidate>) {
            (self.groups, self.planes, self.cells, self.slabs, self.edges, self.candidates) = (groups, planes, cells, slabs, edges, candidates)
        }

        /// The nearest hit of one ray: the batch cast's kernel.
        ///
        /// Every condition of a lane (not parallel, in front, nearer than the best so far, inside
        /// the rectangle, alignment allowed) is a float that is ≥ 0 exactly when it holds; their
        /// bit patterns are OR-ed, so a lane passes when the sign bit of the OR is clear. This
        /// keeps the whole test in plain SIMD float and integer arithmetic, without per-lane
        /// mask handling.
        @inline(__always)
        func nearest(_ o: SIMD3<Float>, _ d: SIMD3<Float>, bounds: PlaneBounds, alignment: Int) -> PlaneRayHit {
            // NaN or infinite rays miss; past this, NaN can only come from 0/0 on a parallel
            // plane, which the first condition rejects.
            guard (o.x + o.y + o.z + d.x + d.y + d.z).isFinite else { return .miss }
            var best = Float.infinity
            var bestIndex: Int32 = -1
            var count = 0
            for gi in 0..<groups.count {
                let g = groups.baseAddress! + gi
                let denominator = g.pointee.nx * d.x + g.pointee.ny * d.y + g.pointee.nz * d.z
                let signed = g.pointee.nx * o.x + g.pointee.ny * o.y + g.pointee.nz * o.z + g.pointee.nd
                let t = -signed / denominator
                var failed = PlaneRaycastKernel.bits(denominator * denominator - 1e-12)
                failed |= PlaneRaycastKernel.bits(t + 0)                      // + 0 turns −0 into +0
                failed |= PlaneRaycastKernel.bits(SIMD8<Float>(repeating: best) - t)
                switch alignment {
                case 0: failed |= PlaneRaycastKernel.bits(g.pointee.allowed.0)
                case 1: failed |= PlaneRaycastKernel.bits(g.pointee.allowed.1)
                default: break
                }
                var u = SIMD8<Float>(), v = SIMD8<Float>()
                if bounds != .infinite {
                    u = g.pointee.ux * o.x + g.pointee.uy * o.y + g.pointee.uz * o.z + g.pointee.u0
                        + t * (g.pointee.ux * d.x + g.pointee.uy * d.y + g.pointee.uz * d.z)
                    v = g.pointee.vx * o.x + g.pointee.vy * o.y + g.pointee.vz * o.z + g.pointee.v0
                        + t * (g.pointee.vx * d.x + g.pointee.vy * d.y + g.pointee.vz * d.z)
                    if bounds == .geometry {
                        failed |= PlaneRaycastKernel.bits(u - g.pointee.minU.0) | PlaneRaycastKernel.bits(g.pointee.maxU.0 - u)
                        failed |= PlaneRaycastKernel.bits(v - g.pointee.minV.0) | PlaneRaycastKernel.bits(g.pointee.maxV.0 - v)
                    } else {
                        failed |= PlaneRaycastKernel.bits(u - g.pointee.minU.1) | PlaneRaycastKernel.bits(g.pointee.maxU.1 - u)
                        failed |= PlaneRaycastKernel.bits(v - g.pointee.minV.1) | PlaneRaycastKernel.bits(g.pointee.maxV.1 - v)
                    }
                }
                // Any lane with a clear sign bit? AND across lanes keeps the sign only if all are set.
                let quarter = failed.lowHalf & failed.highHalf
                let pair = quarter.lowHalf & quarter.highHalf
                guard (pair.x & pair.y) & Int32.min == 0 else { continue }
                for lane in 0..<8 where failed[lane] & Int32.min == 0 {
                    let tl = t[lane]
                    let index = gi &* 8 &+ lane
                    if bounds == .geometry {
                        // Polygon tests wait until every rectangle hit is known, then run nearest
                        // first and stop at the first polygon that holds the hit.
                        candidates[count] = Candidate(distance: tl, index: Int32(index), local: SIMD2(u[lane], v[lane]))
                        count &+= 1
                    } else if tl < best {
                        best = tl
                        bestIndex = Int32(index)
                    }
                }
            }
            while count > 0 {
                var nearest = 0
                for k in 1..<max(1, count) where candidates[k].distance < candidates[nearest].distance { nearest = k }
                let c = candidates[nearest]
                if planes[Int(c.index)].grid.contains(c.local, cells: cells, slabs: slabs, edges: edges) {
                    best = c.distance
                    bestIndex = c.index
                    break
                }
                count &-= 1
                candidates[nearest] = candidates[count]
            }
            // A ray starting on the plane gives −0; report +0.
            return bestIndex < 0 ? .miss : PlaneRayHit(distance: best == 0 ? 0 : best, planeIndex: bestIndex)
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
                        let denominator = dot(p.normal, d)
                        guard abs(denominator) > 1e-6 else { continue }
                        let t = -(dot(p.normal, o) + p.offset) / denominator
                        guard t >= 0 else { continue }
                        let u = dot(p.xRow, o) + p.xConstant + t * dot(p.xRow, d)
                        let v = dot(p.zRow, o) + p.zConstant + t * dot(p.zRow, d)
                        let local = SIMD2(u, v)
                        let inExtent = u >= p.extentMinimum.x && u <= p.extentMaximum.x
                            && v >= p.extentMinimum.y && v <= p.extentMaximum.y
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
