package bus

const DeltaBuffer = deltaBuffer
