package nn

import "math"

// toBF16 rounds f to bfloat16 (the upper half of a float32), to nearest even.
func toBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 { // NaN
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

// fromBF16 widens a bfloat16 to float32.
func fromBF16(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }
