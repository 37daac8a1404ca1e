import Foundation
import Testing
@testable import PlaneKitDetection

/// How a pixel at a boundary cell is given to one of the planes around it.
@Suite struct PixelRefinementTests {
    /// Labels the four points as one row of a boundary cell with no own region; the labels.
    static func assign(_ points: [SIMD3<Float>], to planes: [SIMD4<Float>], limit: Float, alongRay: Bool = true) -> [UInt16] {
        var labels = [UInt16](repeating: 0, count: points.count)
        let candidates = UnsafeMutablePointer<PixelRefinement.Candidate>.allocate(capacity: planes.count)
        let row = UnsafeMutablePointer<PixelRefinement.RowQuad>.allocate(capacity: (points.count + 3) / 4)
        defer {
            candidates.deallocate()
            row.deallocate()
        }
        for (k, plane) in planes.enumerated() {
            (candidates + k).initialize(to: PixelRefinement.Candidate(plane: plane, label: UInt16(k + 1)))
        }
        points.withUnsafeBytes { raw in
            labels.withUnsafeMutableBufferPointer { out in
                PixelRefinement.assign(x0: 0, x1: points.count, y0: 0, y1: 1, width: points.count, points: raw.baseAddress!,
                                       labels: out.baseAddress!, candidates: candidates, count: planes.count, own: -1,
                                       reference: .zero, a: limit, b: 0, z0: 1, alongRay: alongRay, row: row)
            }
        }
        return labels
    }

    /// The plane `n·p + offset = 0` through `point` with unit normal `normal`.
    static func plane(normal: SIMD3<Float>, through point: SIMD3<Float>) -> SIMD4<Float> {
        SIMD4(normal, -(normal * point).sum())
    }

    /// A pixel on the fold between a face seen head-on and one seen at 75°: 0.3 mm from the steep
    /// face's plane but 1.2 mm from it along the ray, 0.6 mm from the frontal face's either way.
    static let foldPixel = SIMD3<Float>(0, 0, 1)
    static let frontalFace = plane(normal: SIMD3(0, 0, 1), through: SIMD3(0, 0, 1.0006))
    static let steepFace: SIMD4<Float> = {
        let angle = Float.pi * 75 / 180
        let normal = SIMD3<Float>(sin(angle), 0, cos(angle))
        return plane(normal: normal, through: foldPixel + 0.0003 * normal)
    }()

    /// Depth noise lies along the ray, so the fold pixel goes to the frontal face; the nearest
    /// plane by distance alone would be the steep one. A pixel beyond both planes' reach goes to
    /// neither.
    @Test func contestedPixelsGoToThePlaneNearerAlongTheRay() {
        let pixel = Self.foldPixel, far = SIMD3<Float>(0, 0, 1.01)
        let labels = Self.assign([pixel, pixel, far, pixel], to: [Self.frontalFace, Self.steepFace], limit: 0.0016)
        #expect(labels == [1, 1, 0, 1])
        // Either order of the candidates.
        #expect(Self.assign([pixel, pixel, far, pixel], to: [Self.steepFace, Self.frontalFace], limit: 0.0016) == [2, 2, 0, 2])
    }

    /// At room scale the same pixel goes by plain distance, to the steep plane 0.3 mm off.
    @Test func roomScaleGoesByPlainDistance() {
        let pixels = [SIMD3<Float>](repeating: Self.foldPixel, count: 4)
        #expect(Self.assign(pixels, to: [Self.frontalFace, Self.steepFace], limit: 0.0016, alongRay: false) == [2, 2, 2, 2])
        #expect(Self.assign(pixels, to: [Self.steepFace, Self.frontalFace], limit: 0.0016, alongRay: false) == [1, 1, 1, 1])
    }

    /// A face seen at a grazing angle keeps a pixel that lies on it and far from its neighbour:
    /// its rays are taken as no steeper than 78°, so the ray distance does not blow up.
    @Test func aGrazingFaceKeepsThePixelsOnIt() {
        let pixel = SIMD3<Float>(0, 0, 1)
        let angle = Float.pi * 88 / 180
        let grazingNormal = SIMD3<Float>(sin(angle), 0, cos(angle))
        let grazing = Self.plane(normal: grazingNormal, through: pixel + 0.0001 * grazingNormal)
        let frontal = Self.plane(normal: SIMD3(0, 0, 1), through: SIMD3(0, 0, 1.0012))
        #expect(Self.assign([pixel, pixel, pixel, pixel], to: [frontal, grazing], limit: 0.0016) == [2, 2, 2, 2])
    }
}
