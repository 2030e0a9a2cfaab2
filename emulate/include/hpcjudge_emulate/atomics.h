// CPU emulation, atomics: on int, unsigned, unsigned long long, float and
// double, in the emulator (bounds checked; an atomic never races with another).
#pragma once
#include "core.h"

#define HPCJUDGE_ATOMIC(name, T) T name(T* address, T value);
#define HPCJUDGE_ATOMIC_INTS(name)            \
  HPCJUDGE_ATOMIC(name, int)                  \
  HPCJUDGE_ATOMIC(name, unsigned int)         \
  HPCJUDGE_ATOMIC(name, unsigned long long)   \
  HPCJUDGE_ATOMIC(name, long long)
HPCJUDGE_ATOMIC_INTS(atomicAdd)
HPCJUDGE_ATOMIC(atomicAdd, float)
HPCJUDGE_ATOMIC(atomicAdd, double)
HPCJUDGE_ATOMIC_INTS(atomicSub)
HPCJUDGE_ATOMIC(atomicSub, float)
HPCJUDGE_ATOMIC_INTS(atomicMin)
HPCJUDGE_ATOMIC_INTS(atomicMax)
HPCJUDGE_ATOMIC(atomicMin, float)
HPCJUDGE_ATOMIC(atomicMax, float)
HPCJUDGE_ATOMIC_INTS(atomicExch)
HPCJUDGE_ATOMIC(atomicExch, float)
HPCJUDGE_ATOMIC_INTS(atomicAnd)
HPCJUDGE_ATOMIC_INTS(atomicOr)
HPCJUDGE_ATOMIC_INTS(atomicXor)
unsigned int atomicInc(unsigned int* address, unsigned int limit);
unsigned int atomicDec(unsigned int* address, unsigned int limit);
int atomicCAS(int* address, int compare, int value);
unsigned int atomicCAS(unsigned int* address, unsigned int compare, unsigned int value);
unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare, unsigned long long value);
unsigned short atomicCAS(unsigned short* address, unsigned short compare, unsigned short value);
#undef HPCJUDGE_ATOMIC_INTS
#undef HPCJUDGE_ATOMIC
// The _block and _system scopes are the same here.
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicMax_block atomicMax
#define atomicMin_block atomicMin
#define atomicCAS_block atomicCAS
#define atomicExch_block atomicExch
