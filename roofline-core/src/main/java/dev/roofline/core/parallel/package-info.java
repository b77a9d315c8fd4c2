/** Work across several GPUs: the collectives their links carry ({@link dev.roofline.core.parallel.Collective}). */
package dev.roofline.core.parallel;
