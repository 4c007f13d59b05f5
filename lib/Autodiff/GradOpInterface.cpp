//===- GradOpInterface.cpp - reverse-mode rule of an op -------------------===//
#include "RlxAD/Autodiff/GradOpInterface.h"

#include "RlxAD/Autodiff/GradOpInterface.cpp.inc"
