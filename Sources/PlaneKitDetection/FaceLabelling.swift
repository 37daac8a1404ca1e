import PlaneKitGeometry

/// How labels become faces at object scale, after pixel refinement
/// (``OrganizedPlaneDetector/Configuration/splitsDisconnected``):
///
/// 1. Labels are carried on pixel by pixel (``PixelGrowth``).
/// 2. Faces no region grew from are found among the pixels no plane took (``LeftoverFaces``).
/// 3. Each 8-connected patch of a plane is a face of its own, and neighbouring patches that lie
///    on one plane are one face (``ConnectedPatches``).
///
/// The refinement's moments, pixel bounds and labels' regions are replaced by the faces',
/// summed over the points as measured: a smoothed depth staircase labels faces well, but at a
/// fold the smoothing window mixes both faces, and a plane fitted to the smoothed points there
/// leans.
enum FaceLabelling {
    static func label(_ out: UnsafeMutableBufferPointer<UInt16>, refined pixels: inout PixelRefinement,
                      points: UnsafeBufferPointer<SIMD3<Float>>, measuredPoints: UnsafeBufferPointer<SIMD3<Float>>,
                      width: Int, height: Int,
                      configuration c: OrganizedPlaneDetector.Configuration) {
        let planes = planeOfLabel(pixels.regionOfLabel, moments: pixels.moments, noise: pixels.noise)
        PixelGrowth.grow(labels: out, points: points, width: width, height: height, planes: planes,
                         a: c.pixelDistanceFactor * c.noise.constant, b: c.pixelDistanceFactor * c.noise.quadratic,
                         z0: c.noise.referenceDepth)
        LeftoverFaces.recover(labels: out, points: measuredPoints, width: width, height: height, planes: planes,
                              noise: c.noise, lateralNoise: c.lateralNoise, distanceFactor: c.pixelDistanceFactor,
                              minimumPoints: c.minimumPointsPerPlane)
        var patches = ConnectedPatches(labels: out, points: measuredPoints, width: width, height: height,
                                       noise: c.noise, minimumPoints: c.minimumPointsPerPlane)
        patches.mergeCoplanar(noise: c.noise)
        pixels.moments = patches.moments
        pixels.noise = patches.noise
        pixels.minimum = patches.minimum
        pixels.maximum = patches.maximum
        pixels.regionOfLabel = patches.regionOfLabel
    }

    /// Each label's plane `(n, offset)` (zero for label 0 and labels of no region), from its
    /// region's moments.
    private static func planeOfLabel(_ regionOfLabel: [Int], moments: [PointMoments], noise: [NoiseScatter]) -> [SIMD4<Float>] {
        var planes = [SIMD4<Float>](repeating: .zero, count: regionOfLabel.count)
        for (label, r) in regionOfLabel.enumerated() where r >= 0 {
            guard let plane = FastPlaneFit(moments[r], noise: noise[r])?.plane(facing: .zero) else { continue }
            planes[label] = SIMD4(plane.normal, plane.offset)
        }
        return planes
    }
}
