@testable import PlaneKitAnchors
import Testing

/// The covered-ground grid's work is bounded by the extent it covers: at most
/// ``PlaneOccupancy/maximumSide`` cells along either axis, whatever the distance of the surface.
@Suite("Covered-ground grid")
struct PlaneOccupancyTests {
    /// An axis-aligned rectangle in local `(x, z)`, counter-clockwise.
    static func rectangle(_ minimum: SIMD2<Float>, _ maximum: SIMD2<Float>) -> [SIMD2<Float>] {
        [minimum, SIMD2(maximum.x, minimum.y), maximum, SIMD2(minimum.x, maximum.y)]
    }

    @Test func aRoomFloorKeepsItsFiveCentimetreCells() {
        var grid = PlaneOccupancy(cellSize: 0.05)
        // Edges off the cell boundaries, so that rounding cannot move a cell in or out.
        let filled = grid.fill(Self.rectangle(SIMD2(-5.01, -4.01), SIMD2(5.01, 4.01)))
        #expect(filled)
        #expect(grid.coarsening == 0 && grid.cellSize == 0.05)
        // 10 m × 8 m in 5 cm cells: 200 × 160 occupied, stored with an 8-cell margin around the
        // cells of the rectangle's corners (−101…100 × −81…80).
        #expect(grid.occupiedCount == 200 * 160)
        #expect(grid.storedCellCount == 218 * 178)
        #expect(abs(grid.area - 80) < 1e-3)
    }

    @Test func aFarWallIsKeptInCoarserCells() {
        // What an 80 × 60 frame of a wall 53 m away covers: wider than the grid's ±25.6 m.
        var grid = PlaneOccupancy(cellSize: 0.05)
        let filled = grid.fill(Self.rectangle(SIMD2(-40, -3.01), SIMD2(40, 27.01)))
        #expect(filled)
        // ±25.6 m no longer fits 320 cells of 5 cm (1025) or 10 cm (513), but does in 20 cm (257).
        #expect(grid.coarsening == 2 && grid.cellSize == 0.2)
        #expect(grid.storedCellCount <= PlaneOccupancy.maximumSide * PlaneOccupancy.maximumSide)
        // Columns −128…128 (the limit), rows −16…128 and an 8-row margin below: 257 × 153 cells,
        // where 5 cm cells took 1025 × 618. The bound is the grid's side, not the distance.
        #expect(grid.columns == 257 && grid.rows == 153)
        #expect(grid.storedCellCount == 257 * 153)
        // Cell centres from z = −2.9 m to the limit row 128 (25.7 m).
        #expect(grid.occupiedCount == 257 * 144)
        let outline = grid.outline()
        #expect(outline.count == 4)
        #expect(abs((outline.map(\.x).min() ?? 0) + 25.6) < 1e-3 && abs((outline.map(\.x).max() ?? 0) - 25.8) < 1e-3)
    }

    @Test func coarseningKeepsWhatWasCovered() {
        var grid = PlaneOccupancy(cellSize: 0.05)
        let small = Self.rectangle(SIMD2(1.02, 2.02), SIMD2(1.48, 2.48))
        grid.fill(small)
        let before = grid.area
        // A long strip far from the first patch makes the grid coarsen once.
        grid.fill(Self.rectangle(SIMD2(-12, 10), SIMD2(8, 10.5)))
        #expect(grid.coarsening == 1 && grid.cellSize == 0.1)
        #expect(grid.storedCellCount <= PlaneOccupancy.maximumSide * PlaneOccupancy.maximumSide)
        // Every point of the first patch is still covered, and no cell was lost.
        for p in small { #expect(grid.isOccupied(grid.cell(of: p))) }
        #expect(grid.isOccupied(grid.cell(of: SIMD2(1.25, 2.25))))
        #expect(grid.area >= before)
        // A single point occupies its (now 10 cm) cell.
        let added = grid.occupy(point: SIMD2(-3.05, 5.05))
        let again = grid.occupy(point: SIMD2(-3.01, 5.01))
        let notANumber = grid.occupy(point: SIMD2(.nan, 1))
        #expect(added && !again && !notANumber)
        #expect(grid.isOccupied(SIMD2(-31, 50)))
    }

    @Test func growingRowByRowStaysBounded() {
        // A plane seen a strip at a time across 30 m: the grid never holds more than its bound.
        var grid = PlaneOccupancy(cellSize: 0.05)
        var largest = 0
        for k in 0..<300 {
            let z = Float(k) * 0.1 - 15
            grid.fill(Self.rectangle(SIMD2(-1, z), SIMD2(1, z + 0.1)))
            largest = max(largest, grid.storedCellCount)
        }
        #expect(largest <= PlaneOccupancy.maximumSide * PlaneOccupancy.maximumSide)
        #expect(grid.coarsening == 1)
        // 2 m × 30 m in 10 cm cells.
        #expect(grid.occupiedCount == 20 * 300)
    }
}
