/// The batch cast for a run of rays that share an origin (a camera's pixels): each ray tests only
/// the planes its ``DirectionCells`` cell lists, front to back.
///
/// Everything about the origin is worked out once per run: the cells, and per plane its signed
/// distance `n·o + offset`, evaluated exactly as ``PlaneRaycastKernel/PreparedPlane/distance(_:_:)``
/// does, so each ray's distances, local coordinates and answer are bit for bit those of the
/// other paths. A plane at the same distance as the best hit so far replaces it only if it
/// comes first in the kernel's order, as in the four-lane cast.
struct OriginCast {
    /// One listed plane with the origin's numbers.
    struct Candidate {
        var plane: PlaneRaycastKernel.PreparedPlane
        /// `n·o + offset` for the run's origin.
        var signed: Float
        /// The plane's index in the kernel.
        var index: Int32
    }

    /// The planes' bounds rectangles (polygon or extent) in the world.
    let rectangles: ContiguousArray<PlaneRectangle>
    private(set) var cells = DirectionCells()
    /// The planes in the cells' bit order.
    private var candidates = ContiguousArray<Candidate>()

    /// A caster for planes whose bounds are `rectangles`.
    init(rectangles: ContiguousArray<PlaneRectangle>) {
        self.rectangles = rectangles
        candidates.reserveCapacity(DirectionCells.maximumPlanes)
    }

    /// Prepares for rays from `origin` (finite) against the planes whose alignment bit is in
    /// `allowed`.
    mutating func build(origin: SIMD3<Float>, planes: UnsafeBufferPointer<PlaneRaycastKernel.PreparedPlane>, allowed: Int32) {
        rectangles.withUnsafeBufferPointer { rectangles in
            cells.build(origin: origin, rectangles: rectangles) { planes[$0].alignmentBit & allowed != 0 }
        }
        candidates.removeAll(keepingCapacity: true)
        for index in cells.order {
            let plane = planes[Int(index)]
            candidates.append(Candidate(plane: plane, signed: plane.signedDistance(origin), index: index))
        }
    }

    /// What plane `index`'s bounds test answers over the local rectangle `lo…hi`: its polygon
    /// grid's ``PolygonGrid/footprint`` with `geometry`, otherwise its extent's (inclusive, as
    /// the extent test compares).
    static func footprint(_ index: Int, _ lo: SIMD2<Double>, _ hi: SIMD2<Double>, geometry: Bool,
                          view: PlaneRaycastKernel.KernelView) -> PolygonGrid.Footprint {
        let p = view.planes[index]
        if geometry { return p.grid.footprint(lo, hi, sums: view.sums) }
        let minimum = SIMD2<Double>(Double(p.extentMinimum.x), Double(p.extentMinimum.y))
        let maximum = SIMD2<Double>(Double(p.extentMaximum.x), Double(p.extentMaximum.y))
        if lo.x >= minimum.x && hi.x <= maximum.x && lo.y >= minimum.y && hi.y <= maximum.y { return .inside }
        if hi.x < minimum.x || lo.x > maximum.x || hi.y < minimum.y || lo.y > maximum.y { return .outside }
        return .mixed
    }

    /// Classifies every cell now rather than when its first ray comes (for checking the
    /// classification itself).
    mutating func classifyEveryCell(geometry: Bool, view: PlaneRaycastKernel.KernelView) {
        cells.masks.withUnsafeMutableBufferPointer { masks in
            cells.classified.withUnsafeMutableBufferPointer { classified in
                cells.footprints.withUnsafeBufferPointer { footprints in
                    for index in 0..<DirectionCells.noCell where !classified[index] {
                        DirectionCells.classify(index, masks: masks, classified: classified, footprints: footprints) {
                            OriginCast.footprint($0, $1, $2, geometry: geometry, view: view)
                        }
                    }
                }
            }
        }
    }

    /// Casts rays `start ..< end`, all from `o` (the origin of the last ``build``), and writes
    /// their hits; `geometry` chooses polygon bounds, otherwise extents. Classifies the cells
    /// the rays reach that are not yet.
    mutating func cast(_ o: SIMD3<Float>, _ directions: UnsafeBufferPointer<SIMD3<Float>>, from start: Int, to end: Int, geometry: Bool,
              view: PlaneRaycastKernel.KernelView, into hits: UnsafeMutableBufferPointer<PlaneRayHit>) {
        cells.masks.withUnsafeMutableBufferPointer { masks in
            cells.classified.withUnsafeMutableBufferPointer { classified in
                cells.footprints.withUnsafeBufferPointer { footprints in
                    candidates.withUnsafeBufferPointer { candidates in
                        let table = Table(masks: masks, classified: classified, footprints: footprints, candidates: candidates)
                        // One loop per bounds kind, so that the kind is a constant inside each loop.
                        var i = start
                        if geometry {
                            while i < end { OriginCast.cast(o, directions, from: i, to: end, table, geometry: true, view, hits); i &+= 4 }
                        } else {
                            while i < end { OriginCast.cast(o, directions, from: i, to: end, table, geometry: false, view, hits); i &+= 4 }
                        }
                    }
                }
            }
        }
    }

    /// The run's arrays as raw buffers.
    struct Table {
        let masks: UnsafeMutableBufferPointer<DirectionCells.Cell>
        let classified: UnsafeMutableBufferPointer<Bool>
        let footprints: UnsafeBufferPointer<Footprints>
        let candidates: UnsafeBufferPointer<Candidate>
    }

    /// Rays `start ..< min(start + 4, end)`: their cells four at a time, then each ray's nearest
    /// hit among its cell's planes, taken front to back.
    @inline(__always)
    private static func cast(_ o: SIMD3<Float>, _ directions: UnsafeBufferPointer<SIMD3<Float>>, from start: Int, to end: Int,
                             _ table: Table, geometry: Bool,
                             _ view: PlaneRaycastKernel.KernelView, _ hits: UnsafeMutableBufferPointer<PlaneRayHit>) {
        // The last ray repeated past the end of the run (those lanes are not written).
        let last = end &- 1
        let d0 = directions[start], d1 = directions[min(start &+ 1, last)]
        let d2 = directions[min(start &+ 2, last)], d3 = directions[min(start &+ 3, last)]
        let cells = DirectionCells.cells(SIMD4(d0.x, d1.x, d2.x, d3.x), SIMD4(d0.y, d1.y, d2.y, d3.y), SIMD4(d0.z, d1.z, d2.z, d3.z))
        let ds = (d0, d1, d2, d3)
        for lane in 0..<min(4, end &- start) {
            let d: SIMD3<Float>
            switch lane {
            case 0: d = ds.0
            case 1: d = ds.1
            case 2: d = ds.2
            default: d = ds.3
            }
            // A zero, NaN or infinite direction has the empty cell and misses everything.
            let index = Int(cells[lane])
            if !table.classified[index] {
                DirectionCells.classify(index, masks: table.masks, classified: table.classified, footprints: table.footprints) {
                    OriginCast.footprint($0, $1, $2, geometry: geometry, view: view)
                }
            }
            let cell = table.masks[index]
            var mask = cell.listed
            var best = Float.infinity, bestIndex: Int32 = -1
            while mask != 0 {
                let k = mask.trailingZeroBitCount
                let bit = mask & (0 &- mask)
                mask &= mask &- 1
                let c = table.candidates.baseAddress! + k
                let (denominator, t) = c.pointee.plane.distance(signed: c.pointee.signed, d)
                guard t >= 0, t < best || (t == best && c.pointee.index < bestIndex),
                      denominator > 1e-6 || denominator < -1e-6 else { continue }
                let inside: Bool
                if cell.inside & bit != 0 {
                    // The bounds test passes for every ray of the cell: no need to run it.
                    inside = true
                } else if geometry {
                    let local = c.pointee.plane.local(o, d, t)
                    inside = c.pointee.plane.grid.contains(local, cells: view.cells, slabs: view.slabs, edges: view.edges)
                } else {
                    let local = c.pointee.plane.local(o, d, t)
                    let p = c.pointee.plane
                    inside = local.x >= p.extentMinimum.x && local.x <= p.extentMaximum.x
                        && local.y >= p.extentMinimum.y && local.y <= p.extentMaximum.y
                }
                if inside {
                    best = t
                    bestIndex = c.pointee.index
                }
            }
            // A ray starting on the plane gives −0; report +0.
            hits[start &+ lane] = bestIndex < 0 ? .miss : PlaneRayHit(distance: best == 0 ? 0 : best, planeIndex: bestIndex)
        }
    }
}
