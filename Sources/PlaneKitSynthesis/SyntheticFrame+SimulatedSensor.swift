import PlaneKitSeededRandom
extension SyntheticFrame {
    /// A single frame of `sensor` generated entirely from `seed`: for a ``SimulatedSensor/Setting/tabletop``
    /// sensor the ``TabletopScene`` of the seed seen from its random scanner pose, for a
    /// ``SimulatedSensor/Setting/room`` sensor the ``SyntheticRoom`` of the seed from its random
    /// camera pose (the room and pose `init(seed:sensor:)` uses); the sensor's noise follows from
    /// the seed too.
    ///
    /// `SyntheticFrame(seed: 7, sensor: .scanner)` is a 512 × 512 scanner range image with its
    /// label image (`labels`) and true planes (`planes`, `cameraNormals`).
    public init(seed: UInt64, sensor: SimulatedSensor) {
        let renderer = SimulatedSensorRenderer(sensor: sensor)
        let noiseSeed = SeededRandom.derivedSeed(seed, stream: 3)
        switch sensor.setting {
        case .tabletop:
            let table = TabletopScene(seed: seed)
            self = renderer.render(table.scene, pose: table.randomCameraPose(seed: seed), noiseSeed: noiseSeed)
        case .room:
            let room = SyntheticRoom(seed: seed)
            self = renderer.render(room.scene, pose: room.randomCameraPose(seed: seed), noiseSeed: noiseSeed)
        }
    }
}
