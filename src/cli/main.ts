#!/usr/bin/env node
console.log('gomoku');
