import Foundation
import PlaneKitGeometry
import Testing

@Suite("Pinhole camera")
struct PinholeCameraTests {
    /// fx = fy = 525, principal point (319.5, 239.5), 640 × 480.
    let kinect = PinholeIntrinsics.kinect()

    @Test func intrinsicsValidation() throws {
        let custom = try #require(PinholeIntrinsics(fx: 500, fy: 400, cx: 100, cy: 50, width: 200, height: 100))
        #expect(custom.fx == 500 && custom.fy == 400 && custom.cx == 100 && custom.cy == 50)
        #expect(custom.width == 200 && custom.height == 100)
        #expect(PinholeIntrinsics(fx: 0, fy: 400, cx: 100, cy: 50, width: 200, height: 100) == nil)
        #expect(PinholeIntrinsics(fx: 500, fy: -1, cx: 100, cy: 50, width: 200, height: 100) == nil)
        #expect(PinholeIntrinsics(fx: .nan, fy: 400, cx: 100, cy: 50, width: 200, height: 100) == nil)
        #expect(PinholeIntrinsics(fx: .infinity, fy: 400, cx: 100, cy: 50, width: 200, height: 100) == nil)
        #expect(PinholeIntrinsics(fx: 500, fy: 400, cx: .nan, cy: 50, width: 200, height: 100) == nil)
        #expect(PinholeIntrinsics(fx: 500, fy: 400, cx: 100, cy: 50, width: 0, height: 100) == nil)
        #expect(PinholeIntrinsics(fx: 500, fy: 400, cx: 100, cy: 50, width: 200, height: -5) == nil)
    }

    @Test func kinectDefaults() {
        #expect(kinect.fx == 525 && kinect.fy == 525)
        // ((640 − 1)/2, (480 − 1)/2)
        #expect(kinect.cx == 319.5 && kinect.cy == 239.5)
        #expect(kinect.width == 640 && kinect.height == 480)
        let small = PinholeIntrinsics.kinect(width: 320, height: 240)
        #expect(small.cx == 159.5 && small.cy == 119.5)
    }

    @Test func unproject() throws {
        // One focal length right of the principal point at depth 2: x = 525·2/525 = 2.
        #expect(kinect.unproject(u: 844.5, v: 239.5, depth: 2) == SIMD3(2, 0, 2))
        // The top-left pixel centre at depth 1: (−319.5/525, −239.5/525, 1).
        expectClose(kinect.unproject(u: 0, v: 0, depth: 1), SIMD3(-0.60857143, -0.45619048, 1))
        // Separate focal lengths: ((200 − 100)·2/500, (90 − 50)·2/400, 2) = (0.4, 0.2, 2).
        let custom = try #require(PinholeIntrinsics(fx: 500, fy: 400, cx: 100, cy: 50, width: 200, height: 100))
        expectClose(custom.unproject(u: 200, v: 90, depth: 2), SIMD3(0.4, 0.2, 2))
    }

    @Test func raysThroughPixels() {
        // The principal point looks straight down +Z.
        let centre = kinect.ray(throughPixel: SIMD2(319.5, 239.5))
        #expect(centre.origin == .zero)
        #expect(centre.direction == SIMD3(0, 0, 1))
        // One focal length right: 45° towards +X, (1,0,1)/√2.
        expectClose(kinect.ray(throughPixel: SIMD2(844.5, 239.5)).direction, SIMD3(halfRoot2, 0, halfRoot2))
        // One focal length down: towards +Y (image rows grow downwards).
        expectClose(kinect.ray(throughPixel: SIMD2(319.5, 764.5)).direction, SIMD3(0, halfRoot2, halfRoot2))
        // The ray passes through the unprojected point of the same pixel.
        let ray = kinect.ray(throughPixel: SIMD2(100, 400))
        let p = kinect.unproject(u: 100, v: 400, depth: 3)
        expectClose(ray.distance(to: p), 0, tolerance: 1e-5)
    }

    @Test func project() {
        // (2, 0, 2): u = 525·1 + 319.5 = 844.5.
        #expect(kinect.project(SIMD3(2, 0, 2)) == SIMD2(844.5, 239.5))
        // (−1, 0.5, 4): u = 525·(−0.25) + 319.5 = 188.25, v = 525·0.125 + 239.5 = 305.125.
        #expect(kinect.project(SIMD3(-1, 0.5, 4)) == SIMD2(188.25, 305.125))
        // Behind the camera, on the camera plane, or not finite: nothing.
        #expect(kinect.project(SIMD3(0, 0, -1)) == nil)
        #expect(kinect.project(SIMD3(1, 1, 0)) == nil)
        #expect(kinect.project(SIMD3(.nan, 0, 1)) == nil)
        #expect(kinect.project(SIMD3(0, 0, .infinity)) == nil)
    }

    @Test func projectUnprojectRoundTrip() {
        for (u, v, z) in [(Float(0), Float(0), Float(0.5)), (639, 479, 4), (100.25, 300.75, 1.5), (319.5, 239.5, 10)] {
            let p = kinect.unproject(u: u, v: v, depth: z)
            expectClose(kinect.project(p), SIMD2(u, v), tolerance: 1e-3)
        }
    }

    @Test func containsCoversWholePixels() {
        // Pixel centres 0…639 and 0…479, each ±0.5.
        #expect(kinect.contains(SIMD2(-0.5, -0.5)))
        #expect(kinect.contains(SIMD2(0, 0)))
        #expect(kinect.contains(SIMD2(639.49, 479.49)))
        #expect(!kinect.contains(SIMD2(639.5, 0)))
        #expect(!kinect.contains(SIMD2(0, 479.5)))
        #expect(!kinect.contains(SIMD2(-0.51, 0)))
        #expect(!kinect.contains(SIMD2(0, -0.51)))
    }

    // MARK: Posed cameras

    @Test func lookAtPoseLikeARKit() throws {
        // At the origin looking down −Z with +Y up: forward (0,0,−1), right = forward × up = (1,0,0),
        // down = forward × right = (0,−1,0).
        let pose = try #require(PinholeCamera.pose(eye: .zero, target: SIMD3(0, 0, -1)))
        #expect(pose.rotation == Matrix3(SIMD3(1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1)))
        #expect(pose.rotation.isRotation())
        #expect(pose.translation == .zero)
    }

    @Test func lookAtPoseWithTranslation() throws {
        // Looking +Z from (1,2,3): right = (0,0,1) × (0,1,0) = (−1,0,0), down = (0,0,1) × (−1,0,0) = (0,−1,0).
        let pose = try #require(PinholeCamera.pose(eye: SIMD3(1, 2, 3), target: SIMD3(1, 2, 13)))
        #expect(pose.rotation == Matrix3(SIMD3(-1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, 1)))
        #expect(pose.translation == SIMD3(1, 2, 3))
        // A non-unit, slightly tilted up still gives a rotation with the image up near it.
        let tilted = try #require(PinholeCamera.pose(eye: .zero, target: SIMD3(3, 0, 0), up: SIMD3(0, 5, 0.5)))
        #expect(tilted.rotation.isRotation())
        expectClose(tilted.zAxis, SIMD3(1, 0, 0))
        #expect(dot(-tilted.yAxis, SIMD3(0, 1, 0)) > 0.99)
    }

    @Test func lookAtPoseDegenerateCases() {
        // Eye on the target: no view direction.
        #expect(PinholeCamera.pose(eye: SIMD3(1, 1, 1), target: SIMD3(1, 1, 1)) == nil)
        // Looking straight along up or down: no right direction.
        #expect(PinholeCamera.pose(eye: .zero, target: SIMD3(0, 5, 0)) == nil)
        #expect(PinholeCamera.pose(eye: .zero, target: SIMD3(0, -5, 0)) == nil)
        #expect(PinholeCamera.pose(eye: .zero, target: SIMD3(0, 0, 1), up: SIMD3(0, 0, -2)) == nil)
        // No up at all, or not finite.
        #expect(PinholeCamera.pose(eye: .zero, target: SIMD3(0, 0, 1), up: .zero) == nil)
        #expect(PinholeCamera.pose(eye: SIMD3(.nan, 0, 0), target: SIMD3(0, 0, 1)) == nil)
    }

    @Test func cameraWithPose() throws {
        let pose = try #require(PinholeCamera.pose(eye: SIMD3(1, 2, 3), target: SIMD3(1, 2, 13)))
        let camera = PinholeCamera(intrinsics: kinect, pose: pose)
        #expect(camera.position == SIMD3(1, 2, 3))
        #expect(camera.forward == SIMD3(0, 0, 1))
        // The principal ray runs from the eye towards the target.
        let centre = camera.ray(throughPixel: SIMD2(319.5, 239.5))
        #expect(centre.origin == SIMD3(1, 2, 3))
        expectClose(centre.direction, SIMD3(0, 0, 1))
        // Target projects to the principal point.
        expectClose(camera.project(SIMD3(1, 2, 13)), SIMD2(319.5, 239.5))
        // (0,2,5) is at camera (1, 0, 2): u = 525·0.5 + 319.5 = 582.
        expectClose(camera.project(SIMD3(0, 2, 5)), SIMD2(582, 239.5))
        // (1,3,5) is at camera (0, −1, 2), above the centre: v = −262.5 + 239.5 = −23 (off the image).
        let above = try #require(camera.project(SIMD3(1, 3, 5)))
        expectClose(above, SIMD2(319.5, -23))
        #expect(!kinect.contains(above))
        // The ray through (582, 239.5): camera direction (0.5, 0, 1)/1.118034 → world (−0.4472136, 0, 0.8944272);
        // at distance 2·1.118034 it reaches (0, 2, 5).
        let ray = camera.ray(throughPixel: SIMD2(582, 239.5))
        expectClose(ray.direction, SIMD3(-0.4472136, 0, 0.8944272))
        expectClose(ray.point(at: 2.236068), SIMD3(0, 2, 5), tolerance: 1e-5)
        // Behind the camera.
        #expect(camera.project(SIMD3(1, 2, 0)) == nil)
    }

    @Test func identityPoseIsTheCameraFrame() {
        let camera = PinholeCamera(intrinsics: kinect)
        #expect(camera.pose == .identity)
        #expect(camera.forward == SIMD3(0, 0, 1))
        #expect(camera.project(SIMD3(2, 0, 2)) == SIMD2(844.5, 239.5))
    }

    @Test func codableRoundTrip() throws {
        let pose = try #require(PinholeCamera.pose(eye: SIMD3(1, 2, 3), target: SIMD3(0, 0, 0)))
        let camera = PinholeCamera(intrinsics: kinect, pose: pose)
        let back = try JSONDecoder().decode(PinholeCamera.self, from: JSONEncoder().encode(camera))
        #expect(back == camera)
    }

    @Test func decodingAppliesTheInitializersRules() throws {
        let good = try JSONDecoder().decode(PinholeIntrinsics.self, from: Data(#"{"fx":525,"fy":520,"cx":319.5,"cy":239.5,"width":640,"height":480}"#.utf8))
        #expect(good == PinholeIntrinsics(fx: 525, fy: 520, cx: 319.5, cy: 239.5, width: 640, height: 480))
        for bad in [#"{"fx":-525,"fy":525,"cx":319.5,"cy":239.5,"width":640,"height":480}"#,
                    #"{"fx":525,"fy":0,"cx":319.5,"cy":239.5,"width":640,"height":480}"#,
                    #"{"fx":525,"fy":525,"cx":319.5,"cy":239.5,"width":0,"height":480}"#,
                    #"{"fx":525,"fy":525,"cx":319.5,"cy":239.5,"width":640,"height":-2}"#,
                    #"{"fx":525,"fy":525,"cx":1e39,"cy":239.5,"width":640,"height":480}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(PinholeIntrinsics.self, from: Data(bad.utf8)) }
        }
    }
}
