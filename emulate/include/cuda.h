// CPU emulation: everything is declared by hpcjudge_emulate.h (force-included).
#pragma once
#include "hpcjudge_emulate.h"
