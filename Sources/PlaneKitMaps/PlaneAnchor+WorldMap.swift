import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitAnchors

extension PlaneAnchor {
    /// A confirmed anchor restored from a map, as if last seen in `frame` after the camera had
    /// travelled `travelled` metres (frame numbers restart in every session).
    init(restoring saved: WorldMap.Anchor, frame: Int, travelled: Float) {
        var occupancy = PlaneOccupancy(cellSize: saved.cellSize)
        for run in saved.cellRuns {
            for k in 0..<Int(run.count) { occupancy.occupy(cell: SIMD2(Int(run.column) + k, Int(run.row))) }
        }
        self.init(restoring: saved.identifier, plane: saved.plane, support: saved.support, gridFrame: saved.gridFrame,
                  occupancy: occupancy, observationCount: saved.observationCount, frame: frame, travelled: travelled)
    }

    /// The anchor as saved in a map (and as a host shares it live with its joiners).
    public var saved: WorldMap.Anchor {
        var runs: [WorldMap.CellRun] = []
        for cell in occupancy.occupiedCells() {
            // occupiedCells() goes row by row, left to right: extend the last run when adjacent.
            if let last = runs.last, Int(last.row) == cell.y, Int(last.column) + Int(last.count) == cell.x, last.count < .max {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(WorldMap.CellRun(row: Int16(cell.y), column: Int16(cell.x), count: 1))
            }
        }
        return WorldMap.Anchor(identifier: identifier, plane: plane, gridFrame: gridFrame, cellSize: occupancy.cellSize,
                               cellRuns: runs, support: support, firstFrame: firstFrame, lastSeenFrame: lastSeenFrame,
                               observationCount: observationCount)
    }
}
