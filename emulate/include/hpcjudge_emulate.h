// CPU emulation of CUDA (judge --emulate): the header the judge force-includes
// when it compiles a GPU submission with g++ instead of nvcc. It declares the
// part of the CUDA language and runtime a submission may use, one header per
// family; the work is done by libhpcjudge-emulate (emulate/runtime/), which
// the runner links too. docs/design.md, "Emulator", says how it works.
#pragma once
#ifndef HPCJUDGE_EMULATION
#define HPCJUDGE_EMULATION 1
#endif
#include "hpcjudge_emulate/core.h"
#include "hpcjudge_emulate/math.h"
#include "hpcjudge_emulate/memory.h"
#include "hpcjudge_emulate/launch.h"
#include "hpcjudge_emulate/barriers.h"
#include "hpcjudge_emulate/warp.h"
#include "hpcjudge_emulate/atomics.h"
