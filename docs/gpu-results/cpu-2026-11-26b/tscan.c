/* scratch: time cumprod along axis 0 of N x N FLOAT32, packed or transposed input */
#define _GNU_SOURCE
#include "dmlref.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  uint32_t n=atoi(argv[1]); int strided=atoi(argv[2]); int reps=atoi(argv[3]); int hp=argc>4?atoi(argv[4]):1; uint32_t axis=argc>5?atoi(argv[5]):0; uint32_t pad=argc>6?atoi(argv[6]):0; int off=argc>7?atoi(argv[7]):0;
  uint64_t bytes=(uint64_t)n*(n+64)*4;
  float*in=aligned_alloc(1<<21,(bytes+(1<<21)-1)/(1<<21)*(1<<21)),*out=aligned_alloc(1<<21,(bytes+(1<<21)-1)/(1<<21)*(1<<21));
  if(hp){madvise(in,bytes,MADV_HUGEPAGE);madvise(out,bytes,MADV_HUGEPAGE);}
  for(uint64_t i=0;i<(uint64_t)n*n;i++)in[i]=1.0f+(float)(i%7)*1e-3f,out[i]=0;
  uint32_t sz[2]={n,n},st_t[2]={1,n+pad};
  dmlr_tensor_desc ti={DMLR_FLOAT32,0,2,sz,strided?st_t:NULL,0,0},to={DMLR_FLOAT32,0,2,sz,NULL,0,0};
  dmlr_calc_buffer_tensor_size(&ti,&ti.TotalTensorSizeInBytes);dmlr_calc_buffer_tensor_size(&to,&to.TotalTensorSizeInBytes);
  dmlr_cumulative_product_operator_desc d={&ti,&to,axis,DMLR_AXIS_DIRECTION_INCREASING,false};
  dmlr_operator_desc op={DMLR_OPERATOR_CUMULATIVE_PRODUCT,&d};
  dmlr_buffer bi={(char*)in+off,bytes-64},bo={(char*)out+off,bytes-64}; dmlr_error err;
  double t[1000];
  for(int r=0;r<reps+1;r++){double t0=now(); if(dmlr_execute(&op,&bi,1,DMLR_FEATURE_LEVEL_MAX,&bo,1,&err)){fprintf(stderr,"fail\n");return 1;} t[r]=now()-t0;}
  qsort(t+1,reps,sizeof(double),cmp);
  printf("axis=%u n=%u %s hp=%d pad=%u off=%d min %.3f ms med %.3f ms  %.2f ns/elem(min)\n",axis,n,strided?"strided":"packed ",hp,pad,off,t[1]*1e3,t[1+reps/2]*1e3,t[1]*1e9/((double)n*n));
  return 0;}
